"""A Pyramids duel against another console: the player's game here, the opponent's replayed from the network.

The duel's own screens play the player's game (:class:`NetDuelScreen` extends
:class:`~pyramid.console.duel.screens.DuelScreen`); what differs is where the
other contender's game comes from. It is never played here and never taken on
trust: :class:`~pyramid.net.link.MatchLink` replays the opponent's moves through
the engine, and :class:`NetDuelRun` reads the opponent's rounds and score from
that replay. Each own move is sent after it is on the board and saved with the
link (``MatchLink.to_json()`` in the saved game's ``context``, beside the
duel), so a power cut on either side brings the table back with no move lost
or played twice.

A match counts once in the statistics (game :data:`~pyramid.saved.stats.NETWORK_GAME`,
variant: the opponent's name): when both games are over (the higher total
wins), when the opponent leaves before finishing (a win for the player who
stayed) or when this player leaves first (a loss). A void match counts for
nobody.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from pyramid.console.catalogue import letters_for, say
from pyramid.actions import Action, Kind
from pyramid.console.duel.flow import GAME, DuelRun
from pyramid.console.duel.screens import DuelScreen, ResultScreen
from pyramid.console.duel.table import DuelTable
from pyramid.console.net import wording
from pyramid.console.replay import ReplayScreen
from pyramid.console.protocols import Console
from pyramid.console.screen import choose_line
from pyramid.engine.deal import MAX_DEAL_NUMBER
from pyramid.engine.duel.board import DuelBoard, DuelMove
from pyramid.engine.duel.match import Contender, Duel, FinishedGame
from pyramid.net import events as ev
from pyramid.net.link import MatchLink
from pyramid.net.match_state import TableStateError
from pyramid.net.views import OpponentGame, TableView
from pyramid.saved.progress import Progress
from pyramid.saved.stats import NETWORK_GAME, GameResult
from pyramid.view import Hit, MenuHit, PanelView, View

#: Shown for the opponent until someone sits at the table.
NOBODY = "net.opponent"


class NetDuelRun(DuelRun):
    """One match at a table: this player's board, the link carrying it, and the result once known.

    ``listen`` is where a host's table listens, saved so that a console
    restarted after a power cut opens its table on the same port again (the
    guest comes back there). ``table_view`` gives the trace's ``table`` object;
    ``leave_table`` is the results screen's "Leave the table".
    """

    def __init__(self, session: Console, link: MatchLink, own_name: str, table_view: Callable[[], TableView | None],
                 leave_table: Callable[[], None], board: DuelBoard | None = None,
                 started: datetime.datetime | None = None, listen: tuple[str, int] | None = None) -> None:
        self.link = link
        self.own_name = own_name
        self.seat = 0 if link.role == "host" else 1
        self.board = board if board is not None else DuelBoard.for_match(link.match_number)
        self.table_view = table_view
        self.listen = listen
        #: "Leave the table" as the results screen offers it (asked first when it counts: lobby.ask_to_leave).
        self.leave_table = leave_table
        #: The latest news from the table, worded ("Ann's console is not answering").
        self.status = ""
        #: Whether that news holds until other news comes (not answering, left, void); else it is news of
        #: a moment ("Bob sat at the table"), gone at this player's next move and never on the results.
        self.status_holds = False
        self.voided = False
        self.gone = False  # the opponent left, closed the table or stayed away too long
        self.recorded = False
        #: The opponent left while this player's game went on: the match is won, and over here.
        self.won_by_leaving = False
        #: A new round proposed by the opponent, and the one this player proposed.
        self.their_rematch: int | None = None
        self.my_rematch: int | None = None
        #: The opponent's game as the link's replay had it at the latest news (:meth:`refresh`).
        self.opponent: OpponentGame = link.opponent_game()
        super().__init__(session, self._duel(), started)

    def game_screen(self) -> NetDuelScreen:
        """The player's own game at the table."""
        return NetDuelScreen(self.session, self)

    def next_round(self, previous: OpponentGame) -> NetDuelRun:
        """This match counted with the opponent's game as it finished (``previous``: the link is on the
        new match already, its replay of this one gone), then a fresh run for the new round both
        agreed on: the same link, a new game."""
        self.refresh(previous)
        return NetDuelRun(self.session, self.link, self.own_name, self.table_view, self.leave_table, listen=self.listen)

    # -- what is known of the match -------------------------------------------
    @property
    def match_number(self) -> int:
        return self.board.match_number or self.link.match_number

    @property
    def opponent_name(self) -> str:
        return self.link.opponent_name or say(NOBODY)

    @property
    def shared(self) -> bool:
        return False  # each player at a network table has a console of their own

    @property
    def player(self) -> int | None:
        return None if self.board.is_over() else self.seat

    @property
    def active(self) -> bool:
        """The match still goes on at the table (nothing recorded, nobody gone, not void)."""
        return not (self.recorded or self.voided or self.gone)

    def _take_opponent(self, game: OpponentGame | None = None) -> None:
        """The opponent's game as the link's replay has it now, or ``game`` as the link passed it on
        (none of a new round's: that is the next run's)."""
        game = self.link.opponent_game() if game is None else game
        # Within a match the opponent's moves only grow: a snapshot an event carried from before the
        # latest one read (still queued when this game ended, say) never takes the game back.
        if game.match != self.match_number:
            return
        if self.opponent.match != game.match or len(game.moves) >= len(self.opponent.moves):
            self.opponent = game

    def _duel(self) -> Duel:
        names = [self.own_name, self.opponent_name] if self.seat == 0 else [self.opponent_name, self.own_name]
        mine = FinishedGame.of_board(self.board) if self.board.is_over() else None
        opponent = self.opponent
        theirs = FinishedGame(opponent.round_scores, opponent.rounds_cleared) if opponent.finished else None
        results = (mine, theirs) if self.seat == 0 else (theirs, mine)
        return Duel(self.match_number, (Contender(names[0]), Contender(names[1])), results)

    def refresh(self, final: OpponentGame | None = None) -> None:
        """Bring the duel up to date with the opponent's replay (or its ``final`` game, passed on when the
        link went on to the next match); count the match when both games are over."""
        self._take_opponent(final)
        self.duel = self._duel()
        if self.duel.is_finished and not self.recorded and not self.voided:
            self.record(self.duel.outcome_for(self.seat) == "win")

    def record(self, won: bool) -> None:
        """Count the match once (and forget its saved game in the same write)."""
        self.recorded = True
        self.session.store.record_result(
            GameResult(NETWORK_GAME, self.opponent_name, won, sum(self.board.round_scores())), saved_game=GAME)

    # -- this player's game ---------------------------------------------------------
    def send(self, move: DuelMove) -> None:
        """Tell the opponent about ``move`` (already on the board); nobody to tell once the table is gone."""
        if self.voided or self.gone:
            return
        try:
            self.link.play(move)
        except TableStateError:
            pass  # the link ended on the network thread a moment ago: its OpponentLeft event is on its way

    def progress(self, board: DuelBoard) -> Progress:
        """The saved game, with the link beside the duel (the opponent's result is worked out again)."""
        saved = super().progress(board)
        mine = self.duel.results[self.seat]
        results = (mine, None) if self.seat == 0 else (None, mine)
        context: dict[str, Any] = {
            "duel": Duel(self.match_number, self.duel.contenders, results).to_json(),
            "table": self.link.to_json(),
            "listen": None if self.listen is None else list(self.listen),
        }
        return Progress(saved.game, saved.preset, saved.redeals, saved.deal, saved.moves, started=saved.started,
                        deal_number=saved.deal_number, context=context)

    def save(self, board: DuelBoard) -> None:
        if self.active:
            super().save(board)

    def finish_game(self, board: DuelBoard) -> None:
        """This player's game is over: compare if the opponent's is too, else keep it saved and wait."""
        self.refresh()
        self.save(board)

    def leave(self) -> None:
        """This player leaves the table: a match not yet decided is lost once the opponent sat down, even
        before any move (the pyramid is dealt face up: leaving before the first move must not escape a
        bad deal, issue 47). Nothing counts while nobody sat at the table.
        """
        self._take_opponent()
        if self.active and self.link.opponent_name is not None:
            self.record(False)
        elif self.active:
            self.session.store.clear_progress(GAME)
        self.gone = True

    # -- news from the table (lobby.take_event routes each kind to its one method) -----------
    def on_connection(self, event: ev.PeerConnection) -> None:
        name = self.opponent_name
        self._tell(wording.back(name) if event.connected else wording.not_answering(name), not event.connected)

    def on_joined(self, event: ev.OpponentJoined) -> None:
        self._tell(wording.back(event.name) if event.resumed else say("net.sat_down", name=event.name))
        self.refresh()
        self.save(self.board)  # the seat's token and the name, so a restart keeps the same guest

    def on_seated(self, event: ev.Seated) -> None:
        # This console came back to its seat: the host never left (it is not "Ann is back").
        self._tell(say("net.rejoined", name=event.host_name) if event.resumed else "")
        self.refresh()
        self.save(self.board)

    def on_progress(self, event: ev.OpponentMoved | ev.OpponentStatus) -> None:
        self.refresh(event.game)  # the snapshot the event carries: the network's lock is not taken
        if isinstance(event, ev.OpponentMoved):
            self.played()  # news of a moment ("Ann is back") gives way to the opponent's progress

    def on_void(self, event: ev.MatchVoided) -> None:
        self._tell(wording.void(event.reason), holds=True)
        self.void()

    def on_left(self, event: ev.OpponentLeft) -> None:
        if self.voided:
            return
        self._tell(wording.left(self.opponent_name, event.reason), holds=True)
        self.refresh()
        if self.active:
            if self.opponent.finished:
                # Their total stands and is compared when this game ends.
                self.session.store.clear_progress(GAME)
            else:
                self.record(True)
                self.won_by_leaving = True
        self.gone = True

    def on_proposal(self, event: ev.RematchProposed) -> None:
        self.their_rematch = event.match
        if self.my_rematch is not None and event.match < self.my_rematch and self.can_rematch:
            self.link.accept_rematch(event.match)  # both proposed: both sides take the lower number

    def _tell(self, news: str, holds: bool = False) -> None:
        self.status, self.status_holds = news, holds

    def played(self) -> None:
        """This player or the opponent moved: news of a moment has been seen (it stayed up while the
        opponent played a whole round, before issue 47)."""
        if not self.status_holds:
            self.status = ""

    def void(self) -> None:
        """The match is void: it counts for nobody, and its saved game goes."""
        if self.active:
            self.session.store.clear_progress(GAME)
        self.voided = True

    # -- a new round ---------------------------------------------------------------------
    @property
    def can_rematch(self) -> bool:
        return self.board.is_over() and not self.voided and not self.gone and self.link.opponent_name is not None

    def rematch(self) -> None:
        """Accept the opponent's new round, or propose one (a new match number).

        When both propose at once, the side that proposed the higher number
        accepts the other's (:meth:`on_event`), so both start the same match.
        """
        if not self.can_rematch:
            return
        if self.their_rematch is not None:
            self.link.accept_rematch(self.their_rematch)
        elif self.my_rematch is None:
            self.my_rematch = self.session.rng.randint(1, MAX_DEAL_NUMBER)
            self.link.propose_rematch(self.my_rematch)

    def rematch_label(self) -> str:
        if self.their_rematch is not None:
            return say("net.new_round_asked", name=self.opponent_name)
        if self.my_rematch is not None:
            return say("net.new_round_waiting", name=self.opponent_name)
        return say("net.new_round")

    # -- words ------------------------------------------------------------------------------
    def opponent_line(self) -> str:
        if self.link.opponent_name is None:
            return say("net.no_opponent")
        opponent = self.opponent
        return wording.progress(self.opponent_name, opponent.round, opponent.score, opponent.finished)

    def verdict(self) -> str:
        name = self.opponent_name
        if self.voided:
            return say("net.left.void")
        if self.won_by_leaving:
            return say("net.won_left", name=name)
        if self.duel.is_finished:
            outcome = self.duel.outcome_for(self.seat)
            return {"win": say("duel.you_win"), "lose": say("net.name_wins", name=name), "tie": say("duel.tie")}[outcome]
        if self.gone:
            return wording.left(name, "left")
        return say("net.still_playing", name=name)

    def comparison(self) -> tuple[str, ...]:
        """Both totals, then round by round (as against the computer); the opponent's rounds so far."""
        mine, theirs = self.board.round_scores(), self.opponent.round_scores
        lines = [say("net.totals", mine=sum(mine), theirs=sum(theirs), name=self.opponent_name)]
        for number in range(1, max(len(mine), len(theirs)) + 1):
            a = str(mine[number - 1]) if number <= len(mine) else "·"
            b = str(theirs[number - 1]) if number <= len(theirs) else "·"
            lines.append(say("net.round_totals", round=number, mine=a, theirs=b))
        if self.status and self.status_holds and not self.duel.is_finished:
            lines.append(self.status)
        return (*lines, say("duel.match_of", match=self.match_number))

    def trace(self) -> dict[str, Any]:
        """The trace's ``table`` and ``opponent`` objects (docs/developers.md, "Scripted mode")."""
        view = self.table_view() or self.link.table(self.own_name, "", 0)
        return {"table": view.to_json(), "opponent": self.link.opponent().to_json()}


class NetDuelScreen(DuelScreen):
    """The player's game at a table: this player's sequence on the detail line, as against the computer;
    below the table the table's news, else the opponent's live progress."""

    run: NetDuelRun

    def __init__(self, session: Console, run: NetDuelRun) -> None:
        super().__init__(session, run, run.board)
        self.player = run.seat
        self.finished = run.board.is_over()

    def moved(self, move: DuelMove, round_before: int) -> None:
        self.run.send(move)
        self.run.played()
        super().moved(move, round_before)

    def detail(self) -> str:
        """This player's sequence or joker (the opponent's progress is on the status line: after "Ann:
        round 1, 155" a sequence read as Ann's, issue 29)."""
        board = self.board
        own = say("duel.joker_on_pile") if board.joker_armed else say("duel.sequence", streak=board.streak)
        return own[0].upper() + own[1:]

    def status_line(self) -> str:
        """A refused pick or the joker's cost first (the player's own doing), else the table's news, else
        the opponent's progress."""
        return super().status_line() or self.run.status or self.run.opponent_line()

    def news(self) -> None:
        """The opponent left while this player's game went on: the match is won and over here
        (docs/rules.md, "left"), so the game stops, and its panel says so and leads to the results."""
        if self.run.won_by_leaving:
            self.finished = True

    def resume(self) -> None:
        self.news()  # the news came while a screen was over this one

    def _handle_panel(self, action: Action, hit: Hit) -> None:
        if self.finished and self.cleared_round is None and action.kind in (Kind.OK, Kind.TAP):
            if action.kind is Kind.OK or isinstance(hit, MenuHit):
                self.session.push(NetResultScreen(self.session, self))
            return
        super()._handle_panel(action, hit)

    def panel(self) -> PanelView | None:
        if self.run.won_by_leaving and self.cleared_round is None and not self.board.is_over():
            return PanelView(self.run.verdict(), (say("net.your_points", points=self.board.score),),
                             (say("duel.see_results"),))
        panel = super().panel()
        if panel is None or not self.finished or self.cleared_round is not None:
            return panel
        return panel._replace(lines=(say("net.your_points", points=self.board.score), self.run.opponent_line()),
                              items=(say("duel.see_results"),))

    def game_state(self) -> dict[str, Any]:
        data = super().game_state()
        data.update(self.run.trace())
        return data


class NetResultScreen(ResultScreen):
    """The comparison so far (or final), and what to do next: watch, a new round, leave the table."""

    game: NetDuelScreen

    @property
    def run(self) -> NetDuelRun:
        return self.game.run

    def watch_line(self) -> str:
        return say("net.watch", name=self.run.opponent_name)

    def items(self) -> list[str]:
        """The lines as the player reads them (they name the opponent, so they are not catalogue keys)."""
        run = self.run
        items = [self.watch_line()] if run.link.opponent_name is not None else []
        if run.can_rematch:
            items.append(run.rematch_label())
        return items + [say("net.leave_table")]

    def lines_to_choose(self) -> list[str]:
        return self.items()

    def handle(self, action: Action, hit: Hit) -> None:
        items = self.items()
        choice = choose_line(action, hit, min(self.selected, len(items) - 1), len(items))
        if choice is None:
            if action.kind in (Kind.BACK, Kind.STAR):
                self.session.pop()
            return
        self.selected = choice.selected
        if not choice.chosen:
            return
        chosen = items[self.selected]
        if chosen == self.watch_line():
            self.session.push(WatchScreen(self.session, self.run))
        elif chosen == say("net.leave_table"):
            self.run.leave_table()
        else:
            self.run.rematch()

    def verdict(self) -> str:
        return self.run.verdict()

    def lines(self) -> tuple[str, ...]:
        return self.run.comparison()

    def view(self) -> View:
        items = self.items()
        return View(self.name, table=self.game.view().table,
                    panel=PanelView(self.verdict(), self.lines(), tuple(items), min(self.selected, len(items) - 1)))

    def menu_state(self) -> dict[str, Any]:
        return {"items": self.items(), "selected": min(self.selected, len(self.items()) - 1)}


class WatchScreen(ReplayScreen[DuelMove]):
    """The opponent's game so far, move by move (▶ ◀), then live: once every move so far is shown,
    a new one shows as soon as it arrives.

    The moves are the run's snapshot of the opponent's game (:attr:`NetDuelRun.opponent`), taken
    when news comes (:meth:`news`, and :meth:`resume` after a screen over this one closes); drawing
    changes nothing.
    """

    name = "watch"

    def __init__(self, session: Console, run: NetDuelRun) -> None:
        table = DuelTable(DuelBoard.for_match(run.match_number), letters_for(session.settings.card_letters))
        moves = [DuelMove.parse(move) for move in run.opponent.moves]
        super().__init__(session, table, moves, say("net.game_of", name=run.opponent_name))
        self.duel_table = table
        self.run = run
        self.match = run.match_number

    def news(self) -> None:
        """Take the opponent's new moves; follow them live when every move so far is shown."""
        game = self.run.opponent
        if game.match != self.match:
            return  # a new round started: this game is complete
        arrived = game.moves[len(self.moves):]
        caught_up = self.step == len(self.moves)
        self.moves += [DuelMove.parse(move) for move in arrived]
        while caught_up and self.step < len(self.moves):
            self.table.board.push(self.moves[self.step])
            self.step += 1

    def resume(self) -> None:
        self.news()

    def view(self) -> View:
        view = super().view()
        if view.table is None or self.step < len(self.moves) or self.duel_table.board.is_over():
            return view
        line = say("net.live", name=self.run.opponent_name, move=self.step)
        return view._replace(table=view.table._replace(status_line=line))
