"""The Pyramids screens: the duel table, its panels, the turn announcement and the results.

:class:`DuelScreen` plays the game of the contender whose turn it is and
shows the end of each round and of the game over the table; the duel's
bookkeeping (saving, the computer's game, statistics) is
:class:`~pyramid.console.duel.flow.DuelRun`'s. The menus leading here are in
:mod:`pyramid.console.duel.menus`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pyramid.console.catalogue import letters_for, say
from pyramid.console.wording import level_name
from pyramid.actions import ARROWS, Action, Kind
from pyramid.console.duel.flow import DuelRun, abandon_saved_duel, saved_duel
from pyramid.engine.deal import MAX_DEAL_NUMBER
from pyramid.engine.duel.board import DuelBoard, DuelMove
from pyramid.engine.duel.match import Duel
from pyramid.console.duel.help import PyramidsHelpKey
from pyramid.console.duel.table import DuelTable
from pyramid.console.protocols import Console
from pyramid.console.screen import Screen, choose_line
from pyramid.console.widgets import ConfirmScreen
from pyramid.view import Hit, MenuHit, PanelView, Target, View



def over_saved_duel(session: Console, start: Callable[[], None]) -> None:
    """``start`` a new duel (against the computer, two players, a network table); over a saved one, ask
    first: it would count as lost. No menu loses a duel without a question."""
    if saved_duel(session) is None:
        start()
    else:
        session.push(ConfirmScreen(session, say("duel.new_question"), say("duel.new"), start,
                                   (say("duel.new_detail"),)))


def start_duel(session: Console, duel: Duel) -> None:
    """Deal match ``duel`` (replacing any saved duel), save it and put it on screen."""
    abandon_saved_duel(session)
    run = DuelRun(session, duel)
    board = run.new_board()
    run.save(board)
    open_duel(session, run, board)
    session.show_store_notice()


def open_duel(session: Console, run: DuelRun, board: DuelBoard) -> None:
    """Put the duel's table on screen, with the turn announcement first when two people share it."""
    screen = DuelScreen(session, run, board)
    session.push(screen)
    if run.computer_level is None:
        session.push(TurnScreen(session, screen))


#: The results panel's lines, as catalogue keys.
WATCH_COMPUTER, TO_MENU, REMATCH = "duel.watch_computer", "end.to_menu", "duel.rematch"


class DuelScreen(PyramidsHelpKey, Screen):
    """One contender's Pyramids game: cursor moves and picks, round and game panels."""

    name = "duel"

    def __init__(self, session: Console, run: DuelRun, board: DuelBoard) -> None:
        super().__init__(session)
        self.run = run
        self.player = run.player or 0
        self.table = DuelTable(board, letters_for(session.settings.card_letters))
        self.message = ""
        #: The round just cleared, shown in a panel until ✓.
        self.cleared_round: int | None = None
        self.finished = False

    @property
    def board(self) -> DuelBoard:
        return self.table.board

    @property
    def player_name(self) -> str:
        return self.run.duel.contenders[self.player].name

    # -- actions ------------------------------------------------------------
    def handle(self, action: Action, hit: Hit) -> None:
        if self.finished or self.cleared_round is not None:
            self._handle_panel(action, hit)
            return
        self.message = ""
        if action.kind in ARROWS:
            self.table.move_cursor(action.kind)
        elif action.kind is Kind.OK and self.table.cursor is not None:
            self._pick(self.table.cursor)
        elif action.kind is Kind.TAP and isinstance(hit, (int, str)):  # a card, the stock, the waste or the joker
            self._pick(hit)
        elif action.kind in (Kind.BACK, Kind.STAR):
            self.session.pop()
        elif action.kind in (Kind.UNDO, Kind.HINT):  # a duel is scored move by move: neither is offered
            self.message = say(f"duel.no_{action.kind.value}")

    def _pick(self, target: Target) -> None:
        round_before, armed = self.board.round_number, self.board.joker_armed
        pick = self.table.pick(target)
        self.message = pick.refusal
        if pick.refusal:
            self.session.cue("wrong", targets=(target,))  # shaken, as the line says why
        if pick.move is not None:
            if armed and not self.board.joker_armed and self.board.round_number == round_before:
                # The joker turns grey now: say why, and when it comes back (issue 47).
                self.message = say("duel.joker_spent_news")
            self.moved(pick.move, round_before)

    def moved(self, move: DuelMove, round_before: int) -> None:
        """``move`` is on the board: save it, or count the finished game; a cleared round gets its panel."""
        if self.board.is_over():
            self.finished = True
            self.run.finish_game(self.board)
            self.session.cue("win" if self.board.status() == "cleared" else "lose")
            return
        self.run.save(self.board)
        if self.board.round_number != round_before:
            self.cleared_round = round_before

    def _handle_panel(self, action: Action, hit: Hit) -> None:
        if action.kind not in (Kind.OK, Kind.TAP, Kind.BACK, Kind.STAR):
            return
        if action.kind is Kind.TAP and not isinstance(hit, MenuHit):
            return
        if self.cleared_round is not None:
            self.cleared_round = None
        elif self.run.duel.is_finished:
            self.session.push(ResultScreen(self.session, self))
        else:
            self.next_turn()

    def next_turn(self) -> None:
        """The next person's game on the same deals, announced."""
        self.player = self.run.player or 0
        self.table = DuelTable(self.run.new_board(), letters_for(self.session.settings.card_letters))
        self.finished = False
        self.session.push(TurnScreen(self.session, self))

    # -- panels -------------------------------------------------------------
    def panel(self) -> PanelView | None:
        board = self.board
        if self.cleared_round is not None:
            points = board.round_scores()[self.cleared_round - 1]
            return PanelView(say("duel.round_cleared", round=self.cleared_round, points=f"{points:+d}"),
                             (say("duel.round_dealt", round=board.round_number, rounds=board.rules.rounds),),
                             (say("duel.continue"),))
        if not self.finished:
            return None
        if board.status() == "cleared":
            title = say("duel.all_cleared", rounds=board.rules.rounds)
            lines: tuple[str, ...] = (say("duel.player_points", name=self.player_name, points=board.score),)
        else:
            title = say("duel.stuck", round=board.round_number)
            lines = (say("duel.stuck_detail"), say("duel.player_points", name=self.player_name, points=board.score))
        follow = say("duel.see_results") if self.run.duel.is_finished else say("duel.next_player")
        return PanelView(title, lines, (follow,))

    # -- views --------------------------------------------------------------
    def detail(self) -> str:
        """The line under the title: the sequence or the joker, and the score to beat."""
        board = self.board
        detail = say("duel.joker_on_pile") if board.joker_armed else say("duel.sequence", streak=board.streak)
        to_beat = self.run.score_to_beat(self.player)
        if to_beat is not None:
            detail = say("duel.to_beat", detail=detail, score=to_beat)
        return detail[0].upper() + detail[1:]

    def status_line(self) -> str:
        """The bottom line: why the last pick was refused; else, on the joker, what it costs; else, when
        two players share the console, whose turn it is (issue 47: the name was squeezed into the
        detail line, 8 px high at 320x240, and players lost track)."""
        board = self.board
        if not self.message and self.table.cursor == "joker" and board.joker_available and not board.joker_armed:
            return say("duel.joker_cost", cost=board.rules.joker_cost)
        if not self.message and self.run.shared and not self.finished:
            return say("duel.turn_of", name=self.player_name)
        return self.message

    def view(self) -> View:
        board = self.board
        # The match number in play, so that it can be passed on (the same deals for whoever plays it).
        title = say("duel.title", match=self.run.duel.match_number, round=board.round_number, rounds=board.rules.rounds)
        table = self.table.view(title, self.detail())
        if self.status_line():
            table = table._replace(status_line=self.status_line())
        panel = self.panel()
        return View("duel_over" if self.finished else "duel", table=table, panel=panel)

    def menu_state(self) -> dict[str, Any] | None:
        panel = self.panel()
        return None if panel is None else {"items": list(panel.items), "selected": 0}

    def game_state(self) -> dict[str, Any]:
        data = self.table.state()
        data["player"] = self.player_name
        data["duel"] = self.run.duel.to_json()
        return data


class TurnScreen(PyramidsHelpKey, Screen):
    """ "Pass the console to Ann": shown before each person's game of a two-player duel."""

    name = "duel_turn"

    def __init__(self, session: Console, game: DuelScreen) -> None:
        super().__init__(session)
        self.game = game

    def handle(self, action: Action, hit: Hit) -> None:
        if action.kind in (Kind.OK, Kind.TAP):
            self.session.pop()
        elif action.kind in (Kind.BACK, Kind.STAR):
            self.session.pop()
            self.session.pop()

    def view(self) -> View:
        name = self.game.player_name
        first = self.game.player == 0
        match = self.game.run.duel.match_number
        lines = (say("duel.pass_to", name=name),
                 say("duel.play_first", match=match) if first else say("duel.same_deals", match=match))
        return View(self.name, table=self.game.view().table,
                    panel=PanelView(say("duel.turn_of", name=name), lines, (say("duel.start"),)))

    def menu_state(self) -> dict[str, Any]:
        return {"items": [say("duel.start")], "selected": 0}


class ResultScreen(PyramidsHelpKey, Screen):
    """Who won, round by round; against the computer it offers to watch the computer's game."""

    name = "duel_result"

    def __init__(self, session: Console, game: DuelScreen) -> None:
        super().__init__(session)
        self.game = game
        self.selected = 0

    @property
    def run(self) -> DuelRun:
        return self.game.run

    def items(self) -> list[str]:
        """The lines, as catalogue keys."""
        if self.run.computer_level is not None:
            return [WATCH_COMPUTER, TO_MENU, REMATCH]
        return [TO_MENU, REMATCH]

    def lines_to_choose(self) -> list[str]:
        return [say(key) for key in self.items()]

    def handle(self, action: Action, hit: Hit) -> None:
        items = self.items()
        choice = choose_line(action, hit, self.selected, len(items))
        if choice is None:
            if action.kind in (Kind.BACK, Kind.STAR):
                self.session.pop()
                self.session.pop()
            return
        self.selected = choice.selected
        if not choice.chosen:
            return
        if items[self.selected] == WATCH_COMPUTER:
            self.watch_computer()
        elif items[self.selected] == REMATCH:
            self.rematch()
        else:
            self.session.pop()
            self.session.pop()

    def rematch(self) -> None:
        """The same contenders on a new match (new deals), at once."""
        duel = self.run.duel
        self.session.pop()
        self.session.pop()
        number = self.session.rng.randint(1, MAX_DEAL_NUMBER)
        start_duel(self.session, replace(duel, match_number=number, results=(None, None)))

    def watch_computer(self) -> None:
        from pyramid.console.replay import ReplayScreen  # loaded when first watched

        duel = self.run.duel
        computer = next(c for c in duel.contenders if c.is_computer)
        record = self.run.computer_game()
        table = DuelTable(DuelBoard.for_match(duel.match_number), letters_for(self.session.settings.card_letters))
        title = say("duel.computer_level", level=level_name(computer.level or ""))
        self.session.push(ReplayScreen(self.session, table, list(record.moves), title))

    def verdict(self) -> str:
        duel = self.run.duel
        winner = duel.winner
        if winner is None:
            return say("duel.tie")
        if self.run.computer_level is not None:
            return say("duel.you_win") if not duel.contenders[winner].is_computer else say("duel.computer_wins")
        return say("duel.name_wins", name=duel.contenders[winner].name)

    def lines(self) -> tuple[str, ...]:
        duel = self.run.duel
        first, second = (c.name if not c.is_computer else say("duel.computer") for c in duel.contenders)
        if self.run.computer_level is not None and not duel.contenders[0].is_computer:
            first = say("duel.you")
        totals = duel.totals()
        # Each total beside its name: "Player 1 -150 – -100 Player 2" read as a range of numbers.
        lines = [say("duel.totals", first=first, first_total=totals[0], second=second, second_total=totals[1])]
        for number, mine, theirs in duel.rounds_compared():
            lines.append(say("duel.round_totals", round=number, first=_points(mine), second=_points(theirs)))
        return (*lines, say("duel.match_of", match=duel.match_number))

    def view(self) -> View:
        return View(self.name, table=self.game.view().table,
                    panel=PanelView(self.verdict(), self.lines(), tuple(self.lines_to_choose()), self.selected))

    def menu_state(self) -> dict[str, Any]:
        return {"items": self.lines_to_choose(), "selected": self.selected}


def _points(points: int | None) -> str:
    return "–" if points is None else str(points)
