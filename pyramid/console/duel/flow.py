"""A Pyramids duel as the console plays it: starting, saving, the computer's game, the end.

A :class:`DuelRun` carries one :class:`~pyramid.duel_match.Duel` through the
session. The game being played is saved after every move like a Pyramid game
(the match number names every deal, so the moves are all there is to save);
the duel itself — contenders, level, games already finished — travels in the
saved game's ``context``, so a power cut during the second player's turn
resumes the second player's turn.

The computer's whole game depends only on the deals and its level, so it is
worked out in a background thread as soon as the duel starts: the expert
needs seconds on a Pi, the person's game minutes, so by the end of the
person's game the result is ready.
"""

from __future__ import annotations

import datetime
from concurrent.futures import Future

from pyramid.console.protocols import Console, GameServices
from pyramid.engine.cards import format_cards
from pyramid.engine.deal import MAX_DEAL_NUMBER
from pyramid.engine.duel.board import PYRAMIDS, DuelBoard
from pyramid.engine.duel.ai import MatchRecord, play_match
from pyramid.engine.duel.levels import LEVELS
from pyramid.engine.duel.match import Duel, FinishedGame
from pyramid.engine.errors import ReplayError
from pyramid.saved.progress import Progress, replay_duel
from pyramid.saved.stats import LOCAL_GAME, GameResult


GAME = PYRAMIDS.name
#: The settings' ``menu_choices`` key remembering the opponent's level.
LEVEL_CHOICE = "pyramids level"
DEFAULT_LEVEL = "good"


def remembered_level(session: Console) -> str:
    """The opponent level chosen last (``"good"`` the first time)."""
    level = session.settings.menu_choices.get(LEVEL_CHOICE, DEFAULT_LEVEL)
    return level if level in LEVELS else DEFAULT_LEVEL


def match_number_for(session: GameServices, chosen: int | None) -> int:
    """``--deal-number`` (used once), else the number the player chose, else a random one."""
    fixed, session.fixed_deal.number = session.fixed_deal.number, None
    return fixed or chosen or session.rng.randint(1, MAX_DEAL_NUMBER)


class DuelRun:
    """One duel in the console: the duel so far, its saved game, the computer's game."""

    def __init__(self, session: Console, duel: Duel, started: datetime.datetime | None = None) -> None:
        self.session = session
        self.duel = duel
        self.started = started
        self._computer: Future[MatchRecord] | None = None
        computer = self.computer_level
        if computer is not None:
            self._computer = self._work_out(duel.match_number, computer)

    def _work_out(self, match_number: int, level: str) -> Future[MatchRecord]:
        """The computer's whole game, worked out beside the main loop as soon as the duel starts (the
        expert needs seconds on a Pi, the person's game minutes): pure computation on a daemon thread,
        so a console switched off mid-search has nothing to wait for. When it is known the main loop
        wakes and draws the total to beat at once (issue 29: it showed only after the next key)."""
        future: Future[MatchRecord] = Future()

        def work() -> MatchRecord:
            try:
                record = play_match(match_number, level)
            except BaseException as error:  # handed to whoever asks for the result
                future.set_exception(error)
                raise
            future.set_result(record)
            return record

        self.session.thinker.beside(work, lambda record: None)  # the answer's arrival alone redraws
        return future

    @property
    def computer_level(self) -> str | None:
        """The computer opponent's level, ``None`` in a two-player duel."""
        for contender in self.duel.contenders:
            if contender.is_computer:
                return contender.level
        return None

    @property
    def shared(self) -> bool:
        """Two people take turns on this console (no computer; a network table is not shared)."""
        return self.computer_level is None

    @property
    def player(self) -> int | None:
        """Index of the contender playing now (``None`` once the duel is over)."""
        return self.duel.next_to_play

    def new_board(self) -> DuelBoard:
        return DuelBoard.for_match(self.duel.match_number)

    def score_to_beat(self, player: int) -> int | None:
        """The other contender's total, when it is known: a person who played before, or the
        computer once its game is worked out (never waited for)."""
        other = 1 - player
        finished = self.duel.totals()[other]
        if finished is not None:
            return finished
        if self.duel.contenders[other].is_computer and self._computer is not None and self._computer.done():
            return self.computer_game().total
        return None

    # -- saving -------------------------------------------------------------
    def progress(self, board: DuelBoard) -> Progress:
        """The saved form of ``board``, the game of the contender playing now."""
        started = self.started or datetime.datetime.now(datetime.UTC).replace(microsecond=0)
        self.started = started
        return Progress(GAME, GAME, None, format_cards(board.deals[0]),
                        tuple(str(move) for move in board.move_stack), started=started,
                        deal_number=self.duel.match_number, context={"duel": self.duel.to_json()})

    def save(self, board: DuelBoard) -> None:
        self.session.store.save_progress(self.progress(board))

    # -- the end of a game and of the duel -----------------------------------
    def finish_game(self, board: DuelBoard) -> None:
        """Count the finished ``board`` for the contender playing; let the computer play its turn.

        A finished duel goes into the statistics (against the computer) and
        its saved game is forgotten; otherwise the next person's empty game is
        saved at once, so a power cut now resumes their turn.
        """
        player = self.duel.next_to_play
        if player is None:
            raise ValueError(f"match {self.duel.match_number} is already over")
        duel = self.duel.with_result(player, FinishedGame.of_board(board))
        while duel.next_to_play is not None and duel.contenders[duel.next_to_play].is_computer:
            duel = duel.with_result(duel.next_to_play, FinishedGame.of_record(self.computer_game()))
        self.duel = duel
        if not duel.is_finished:
            self.started = None
            self.save(self.new_board())
            return
        level = self.computer_level
        if level is None:  # two players on one console: each is counted under their own name
            for seat, contender in enumerate(duel.contenders):
                self.session.store.record_result(
                    GameResult(LOCAL_GAME, contender.name, duel.outcome_for(seat) == "win", duel.totals()[seat]),
                    saved_game=GAME)
        else:
            person = 0 if not duel.contenders[0].is_computer else 1
            self.session.store.record_result(
                GameResult(GAME, level, duel.outcome_for(person) == "win", duel.totals()[person]))

    def computer_game(self) -> MatchRecord:
        """The computer's whole game (waits for the background thread if it is still thinking)."""
        if self._computer is None:
            raise ValueError(f"match {self.duel.match_number} has no computer player")
        return self._computer.result()


def saved_duel(session: GameServices) -> Progress | None:
    return session.store.load_progress(GAME)


def resume(session: Console) -> tuple[DuelRun, DuelBoard] | None:
    """The saved duel set up again, or ``None`` (with a notice) when it cannot be."""
    progress = saved_duel(session)
    if progress is None:
        return None
    try:
        duel, board = replay_duel(progress)
    except ReplayError:
        session.store.clear_progress(GAME)
        return None
    return DuelRun(session, duel, progress.started), board


def abandon_saved_duel(session: Console) -> None:
    """Count a saved unfinished duel that a new one replaces (see :meth:`DuelRun.abandon`)."""
    progress = saved_duel(session)
    if progress is None:
        return
    try:
        duel, _ = replay_duel(progress)
    except ReplayError:
        session.store.clear_progress(GAME)
        return
    level = next((c.level for c in duel.contenders if c.level is not None), None)
    if level is None:
        session.store.clear_progress(GAME)
    else:
        session.store.record_result(GameResult(GAME, level, False))
