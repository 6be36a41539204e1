"""A Pyramid game as the console plays it: which deal, the game saved move by move, its result, its solver.

A :class:`PyramidRun` carries one game through the session, as
:class:`~pyramid.console.duel.flow.DuelRun` carries a duel: every completed
move is saved at once (a handheld is switched off at any moment); the result
goes into the statistics as soon as the deal is over, once; assists (hint,
undo) mark the game as assisted, which the statistics count apart; the deal is
judged from its start when it is lost (for "Watch the solution"); hints are
searched for on the session's thinker. Which deal a new game plays (a number,
the daily deal, a score challenge, the same deal again) is decided here too.
The screens (``game_screen.py``) show the run and take the player's presses;
nothing here shows a screen.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple

from pyramid.console.dealing import DealRequest, Dealt
from pyramid.console.protocols import GameServices
from pyramid.engine.board import Board, Move
from pyramid.engine.cards import format_cards
from pyramid.engine.deal import MAX_DEAL_NUMBER
from pyramid.engine.difficulty import GRADES, Grade
from pyramid.engine.errors import ReplayError
from pyramid.engine.rules import Rules, preset
from pyramid.engine.verdicts import GameVerdicts, Solve
from pyramid.saved.progress import Progress, replay
from pyramid.saved.shares import DailyShare
from pyramid.saved.stats import DailyPlay, DealBest, GameResult, Improvement, PyramidVariant, Stats, improvement

if TYPE_CHECKING:
    from pyramid.engine.advice import Advice
    from pyramid.engine.solver import DealSolver, Solution
    from pyramid.saved.store import Store

GAME = "pyramid"
#: Seconds the solver may think for a hint or a verdict (a Pi is ~10x slower than a PC).
SOLVER_SECONDS = 3.0
#: Seconds the search for the best move on a deal that cannot be won may take (after the solver).
ADVICE_SECONDS = 1.0
#: Seconds the search for a shortest line of a deal with a par may take, so that the solution watched
#: after a loss is the par's line (a longer one, and the panel says so, when it runs out first).
PAR_LINE_SECONDS = 2 * SOLVER_SECONDS


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
    that removes the most pyramid cards (``None`` when it won, or when no move is left). ``other``: a
    move not shown yet in this position, when the hint was asked again (H again shows the next hint):
    one that wins too where the deal is won, any other where it is not."""

    solution: "Solution"
    advice: "Advice | None"
    other: Move | None = None


def think_of_hint(verdicts: GameVerdicts, board: Board, cancelled: Callable[[], bool],
                  shown: tuple[Move, ...] = ()) -> HintAnswer:
    """The search behind a hint, run on the session's thinker (a worker thread): it reads ``board``,
    a copy of the position, and this game's solver, nothing of the screen. ``shown``: the hints shown
    in this position already; once every other move was shown, the first hint comes back."""
    from pyramid.engine.advice import best_move  # loaded on the first hint, with the solver

    solution = verdicts.solve(board, cancelled)
    if shown and not cancelled():
        other = _next_hint(verdicts, board, cancelled, solution.verdict == "win", shown)
        if other is not None:
            return HintAnswer(solution, None, other)
    if solution.verdict == "win" or cancelled():
        return HintAnswer(solution, None)
    return HintAnswer(solution, best_move(board, ADVICE_SECONDS))


def _next_hint(verdicts: GameVerdicts, board: Board, cancelled: Callable[[], bool], won: bool,
               shown: tuple[Move, ...]) -> Move | None:
    """The first legal move not in ``shown`` (in a won position, the first that still wins), or None."""
    for move in board.legal_moves:
        if move in shown or cancelled():
            continue
        if won:
            board.push(move)
            wins = verdicts.solve(board, cancelled, remember=False).verdict == "win"
            board.pop()
            if not wins:
                continue
        return move
    return None


# -- what a saved game says of itself -------------------------------------------
def variant_of(board: Board) -> PyramidVariant:
    """The statistics key of a game: its preset and redeal allowance."""
    return PyramidVariant(board.rules.name, board.rules.redeals)


def result_of(progress: Progress, board: Board) -> GameResult:
    """How a game ended (or was abandoned), for the statistics."""
    return GameResult(GAME, variant_of(board).key, board.status() == "cleared", board.counted_score(),
                      progress.assisted, board.rules.scoring != "cards_left")


def daily_of(progress: Progress) -> datetime.date | None:
    """The date whose daily deal a saved game is (its context's ``daily``), if it is one."""
    daily = progress.context.get("daily")
    try:
        return datetime.date.fromisoformat(daily) if isinstance(daily, str) else None
    except ValueError:
        return None


def daily_play(progress: Progress, board: Board, result: GameResult) -> DailyPlay | None:
    """A daily deal's game as its day counts it (``None`` for any other game): played after its day
    or not, its moves and score (kept for its day only when unaided: :meth:`Store.record_result`)."""
    day = daily_of(progress)
    if day is None:
        return None
    return DailyPlay(day, progress.context.get("late") is True, len(board.move_stack), result.score)


def daily_share(progress: Progress, board: Board, result: GameResult, seconds: int, sharer: str | None) -> DailyShare | None:
    """What a daily deal's game shares with friends on the table server (issue 50), under the player's
    name ``sharer`` (``None``: not shared): a game of the deal of its day only, as the streaks count
    it (a past day's, from the calendar, is not), and a line short enough to be carried and proven."""
    day = daily_of(progress)
    if sharer is None or day is None or progress.context.get("late") is True:
        return None
    from pyramid.net.daily_result import MAX_LINE, DailyResult  # with sharing only, not at the start

    if len(board.move_stack) > MAX_LINE:
        return None
    shared = DailyResult(day, variant_of(board), sharer, result.won, board.counted_score(), len(board.move_stack),
                         seconds, result.assisted, tuple(str(move) for move in board.move_stack))
    return DailyShare(day, result.variant, shared.to_bytes())


def seconds_of(progress: Progress) -> int:
    """The seconds of play saved with ``progress`` (0 for a game saved before they were)."""
    seconds = progress.context.get("seconds")
    return seconds if type(seconds) is int and seconds >= 0 else 0


def record_abandoned(store: "Store", progress: Progress, sharer: str | None = None) -> None:
    """Count a saved game that the player replaced by a new deal (a loss, unless it was over); a daily
    deal's is shared under ``sharer``, as a game that ended (:func:`daily_share`)."""
    try:
        board = replay(progress)
    except ReplayError:
        store.clear_progress(progress.game)
        return
    result = result_of(progress, board)
    # A daily deal left for another game was played (lost, unless it was over): its day says so.
    store.record_result(result, daily=daily_play(progress, board, result),
                        share=daily_share(progress, board, result, seconds_of(progress), sharer))


# -- one game --------------------------------------------------------------------
class PyramidRun:
    """One Pyramid game: the board, its saved progress, the result counted once, its solver."""

    def __init__(self, session: GameServices, board: Board, progress: Progress) -> None:
        self.session = session
        self.board = board
        self.progress = progress
        #: The statistics of this game's variant before it was counted (``None``: not counted, or counted
        #: and left over for good); "Undo the last move" on the end panel takes the count back.
        self.counted_over: Stats | None = None
        #: The deal's verdict from its start, once judged (a lost game is judged for its end panel).
        self.from_start: Solution | None = None
        #: The deal is being judged from its start (on the session's thinker).
        self.judging = False
        #: The solver for this game: a hint along the line it found, or after a proven loss, comes at once.
        self.verdicts = GameVerdicts(game_solver())
        #: Seconds played before this run began (a game resumed keeps its time), and when the clock last
        #: started (``None`` while the game is paused).
        self.seconds_before = seconds_of(progress)
        self.since: float | None = session.clock()
        #: The seconds it took, once over (the time stops with the game).
        self.final_seconds: int | None = None
        #: What this game's win bettered in the deal's best (None: nothing, or not won unaided).
        self.bettered: Improvement | None = None
        #: When the hint being searched for was asked (the session's clock), or ``None``.
        self.thinking_since: float | None = None
        self.check_end()

    @property
    def over(self) -> bool:
        return self.board.status() != "playing"

    # -- what the game is ------------------------------------------------------
    @property
    def daily(self) -> datetime.date | None:
        """The date whose daily deal this game is (saved in its context), if it is one."""
        return daily_of(self.progress)

    @property
    def par(self) -> int | None:
        """The daily deal's par, in moves, if it has one."""
        return self._positive("par")

    @property
    def score_par(self) -> int | None:
        """The deal's best score reachable (a daily deal, a score challenge), if known."""
        return self._positive("score_par")

    @property
    def grade(self) -> Grade | None:
        """The deal's difficulty, if known."""
        grade = self.progress.context.get("grade")
        return next((known for known in GRADES if known == grade), None)

    def _positive(self, key: str) -> int | None:
        """A whole number above 0 saved in the game's context under ``key`` (anything else: none)."""
        value = self.progress.context.get(key)
        return value if type(value) is int and value > 0 else None

    @property
    def score_goal(self) -> int | None:
        """The score a score challenge asks for (``None``: this game is no score challenge)."""
        return self.score_par if self.daily is None else None

    def same_deal(self) -> DealRequest:
        """ "Play this deal again": the same cards, with everything known of them."""
        progress = self.progress
        return DealRequest(progress.deal_number, self.board.deal, self.daily, self.par, self.grade, self.score_par)

    # -- the game going on -----------------------------------------------------
    def played(self, move: Move) -> None:
        """``move`` is on the board: saved at once, and the end counted if it ended the deal."""
        self._save(self.progress.with_move(move))
        self.check_end()

    def undone(self) -> None:
        """The last move was taken back (the table did it): an assist. After the end of a lost deal, the
        count of the loss is taken back too: one game, one record, counted when it is over again."""
        if self.final_seconds is not None:  # the clock goes on from where it stopped
            self.seconds_before, self.since, self.final_seconds = self.final_seconds, self.session.clock(), None
        if self.counted_over is not None:
            self.session.store.uncount(self.counted_over)
            self.counted_over = None
        self._save(self.progress.without_last_move().with_assist("undo"))

    def hinted(self) -> None:
        """A hint suggested a move: an assist."""
        self._save(self.progress.with_assist("hint"))

    @property
    def seconds(self) -> int:
        """Seconds of play so far (frozen once the game is over)."""
        if self.final_seconds is not None:
            return self.final_seconds
        if self.since is None:
            return self.seconds_before
        return self.seconds_before + int(self.session.clock() - self.since)

    def pause(self) -> None:
        """The pause menu is open: the clock stops."""
        if self.since is not None and self.final_seconds is None:
            self.seconds_before, self.since = self.seconds, None

    def go_on(self) -> None:
        """Back to the game: the clock goes on."""
        if self.since is None:
            self.since = self.session.clock()

    def _save(self, progress: Progress) -> None:
        self.progress = replace(progress, context={**progress.context, "seconds": self.seconds})
        self.session.store.save_progress(self.progress)

    def check_end(self) -> None:
        """Count the result once, as soon as the deal is over, and judge a lost deal from its start."""
        status = self.board.status()
        if status == "playing" or self.counted_over is not None:
            return
        result = result_of(self.progress, self.board)
        self.final_seconds = self.seconds
        best = None
        number = self.progress.deal_number
        if result.won and not result.assisted and number is not None:
            best = DealBest(number, len(self.board.move_stack), self.final_seconds, result.score)
            self.bettered = improvement(best, self.session.store.best_of(result.game, result.variant, number),
                                        result.higher_is_better)
        self.counted_over = self.session.store.stats(result.game, result.variant)
        share = daily_share(self.progress, self.board, result, self.final_seconds, self.session.friends.sharer())
        self.session.store.record_result(result, daily=daily_play(self.progress, self.board, result), best=best,
                                         share=share)
        if share is not None:
            self.session.friends.send_pending()
        if status != "cleared":
            self.thinking_since = None  # a hint's search, even called off, leaves this game's solver first
            self.session.thinker.cancel(wait=True)
            verdicts, start, par = self.verdicts, Board(self.board.deal, self.board.rules), self.par

            def judge(cancelled: Callable[[], bool]) -> "Solution":
                if par is not None:  # the line watched is the par's: a shortest one (issue 47)
                    from pyramid.engine.solver import solve

                    shortest = solve(start, optimal=True, max_seconds=PAR_LINE_SECONDS, cancelled=cancelled)
                    if shortest.verdict != "unknown":
                        return shortest
                return verdicts.solve(start, cancelled)

            self.judging = True
            self.session.thinker.ask(judge, self.judged)

    def judged(self, solution: "Solution") -> None:
        self.judging = False
        self.from_start = solution

    # -- hints -----------------------------------------------------------------
    def ask_hint(self, answer: Callable[[HintAnswer], None], shown: tuple[Move, ...] = ()) -> None:
        """Search for a hint on the session's thinker (the screen keeps drawing); ``answer`` gets it,
        on the main loop. Nothing more while the same position is being searched already. ``shown``:
        the hints shown in this position (the next one is asked for)."""
        if self.thinking_since is not None:
            return
        verdicts, board = self.verdicts, self.board.copy()
        self.thinking_since = self.session.clock()

        def answered(found: HintAnswer) -> None:
            self.thinking_since = None
            answer(found)

        self.session.thinker.ask(lambda cancelled: think_of_hint(verdicts, board, cancelled, shown), answered)

    def stop_hint(self) -> None:
        """Call off the hint being searched for, if any."""
        if self.thinking_since is not None:
            self.thinking_since = None
            self.session.thinker.cancel()


# -- which game -------------------------------------------------------------------
def saved_run(session: GameServices) -> PyramidRun | None:
    """The saved game, replayed, its preset chosen again (``None``: none is saved).
    :class:`~pyramid.engine.errors.ReplayError` when it no longer replays: it is cleared."""
    progress = session.store.load_progress(GAME)
    if progress is None:
        return None
    try:
        board = replay(progress)
    except ReplayError:
        session.store.clear_progress(GAME)
        raise
    session.rules = preset(progress.preset)
    return PyramidRun(session, board, progress)


def daily_request(session: GameServices, day: datetime.date | None = None) -> DealRequest | None:
    """The daily challenge of ``day`` (default today: the same winnable deal for everyone on that date,
    with its par), or ``None`` when the preset has none."""
    from pyramid.engine.daily import NoDailyChallenge, daily_challenge  # the lists load only when asked

    day = session.today() if day is None else day
    try:
        challenge = daily_challenge(day, session.rules.name)
    except NoDailyChallenge:
        return None
    return DealRequest(challenge.number, daily=day, par=challenge.par, score_par=challenge.score_par)


def challenge_request(session: GameServices) -> DealRequest | None:
    """A score challenge under the session's rules: the deal asked for on the command line, else one of
    the shipped deals whose best score is known (one of the daily deals, not today's: no search to
    wait for), else any numbered deal; with its best score when known (:func:`known_best_score`;
    ``score_par`` ``None``: to be found by the solver first). ``None`` when the rules score no points
    (their score is the cards left: nothing to reach)."""
    from pyramid.engine.daily import challenges, daily_challenge  # the lists load only when asked

    rules = session.rules
    if rules.scoring == "cards_left":
        return None
    name, number = rules.name, session.fixed_deal.number
    if number is None:
        today = daily_challenge(session.today(), name).number if challenges(name) else None
        known = [challenge.number for challenge in challenges(name)
                 if challenge.score_par is not None and challenge.number != today]
        number = session.rng.choice(known) if known else session.rng.randint(1, MAX_DEAL_NUMBER)
    return DealRequest(number, score_par=known_best_score(session, rules, number))


def known_best_score(session: GameServices, rules: Rules, number: int) -> int | None:
    """Numbered deal ``number``'s best score under ``rules`` as the shipped lists (the preset's own
    redeals) or the saved data (:meth:`~pyramid.saved.store.Store.keep_deal_score`) know it, if either
    does; a best of 0 points is no goal."""
    from pyramid.engine.daily import challenges  # the lists load only when asked

    shipped = None
    if preset(rules.name).redeals == rules.redeals:  # the lists are for the preset's own redeals
        shipped = next((known.score_par for known in challenges(rules.name) if known.number == number), None)
    return shipped or session.store.deal_score(PyramidVariant(rules.name, rules.redeals).key, number) or None


def new_run(session: GameServices, rules: Rules, request: DealRequest, dealt: Dealt) -> PyramidRun:
    """The game of the cards ``dealt``: it replaces the saved game (which counts as lost, as in most
    solitaire games) and is saved before its first move."""
    saved = session.store.load_progress(GAME)
    if saved is not None:
        record_abandoned(session.store, saved, session.friends.sharer())
        session.friends.send_pending()
    context: dict[str, Any] = {"daily": request.daily.isoformat()} if request.daily else {}
    if request.daily is not None and request.daily < session.today():
        context["late"] = True  # a past day's deal, from the calendar: it marks its day, never a streak
    if request.par is not None:
        context["par"] = request.par
    if request.score_par is not None:
        context["score_par"] = request.score_par
    if dealt.grade is not None:
        context["grade"] = dealt.grade
    progress = Progress(GAME, rules.name, rules.redeals, format_cards(dealt.cards), deal_number=dealt.number,
                        context=context)
    session.store.save_progress(progress)
    return PyramidRun(session, Board(dealt.cards, rules), progress)
