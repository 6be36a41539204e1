"""A deal's best is its score first, then moves, then time, and the end panel says which it bettered
(issue 47, item 2).

Under Three passes, deal 21 can be won with 1,290 points (the best score) or in fewer moves with fewer
points. Before, a retry that won in fewer moves said "New best for this deal!" however many points it
lost; a higher score in more moves said nothing.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from console_steps import choose, play, tap_move
from pyramid.console.catalogue import say
from pyramid.console.menus import open_console
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.engine.board import Board, Move
from pyramid.engine.rules import preset
from pyramid.engine.solver import solve
from pyramid.engine.solver.best_score import best_score
from pyramid.saved.stats import DealBest, improvement
from pyramid.saved.store import Store

DEAL = 21
BEST_LINES = {say("end.best_score"), say("end.best_moves"), say("end.best_time")}


def session_on_deal(path: Path) -> Session:
    session = Session(preset("three-pass"), DealChoice(number=DEAL), store=Store.open(path / "pyramid.db"))
    open_console(session)
    play(session, "ok")
    return session


def lines_of(session: Session) -> tuple[list[Move], list[Move]]:
    """The deal's best-scoring line and its shortest, which scores less in fewer moves."""
    board = session.screen.board  # type: ignore[attr-defined]
    best = list(best_score(Board(board.deal, board.rules)).moves)
    shortest = list(solve(Board(board.deal, board.rules), optimal=True).moves)
    assert len(shortest) < len(best)
    return best, shortest


def win_with(session: Session, line: list[Move]) -> tuple[str, ...]:
    for move in line:
        tap_move(session, move)
    panel = session.view().panel
    assert panel is not None and session.screen.board.status() == "cleared"  # type: ignore[attr-defined]
    return panel.lines


def retry(session: Session) -> None:
    choose(session, say("end.retry"))


def test_fewer_moves_for_fewer_points_is_no_best_and_more_points_in_more_moves_is(tmp_path: Path) -> None:
    session = session_on_deal(tmp_path)
    best, shortest = lines_of(session)
    assert not BEST_LINES & set(win_with(session, shortest)), "the first win: no note"
    low = session.screen.board.score  # type: ignore[attr-defined]
    retry(session)
    assert say("end.best_score") in win_with(session, best)
    high = session.screen.board.score  # type: ignore[attr-defined]
    assert high > low
    retry(session)
    assert not BEST_LINES & set(win_with(session, shortest)), "fewer moves, fewer points: not a best"
    kept = session.store.best_of("pyramid", "three-pass/two", DEAL)
    assert kept is not None and (kept.score, kept.moves) == (high, len(best))


def test_the_same_score_in_fewer_moves_then_in_less_time() -> None:
    first = DealBest(DEAL, 40, 300, 1290)
    assert improvement(first, None) == "first"
    assert improvement(first._replace(moves=39), first) == "moves"
    assert improvement(first._replace(moves=39, score=1285), first) is None
    assert improvement(first._replace(seconds=200), first) == "time"
    assert improvement(first, first) is None
    assert improvement(first._replace(score=1, moves=60), first._replace(score=3), higher_is_better=False) == "score"


def test_a_best_kept_before_scores_were_is_compared_on_moves(tmp_path: Path) -> None:
    """A data store of the main before issue 47 (schema 6: no score column) opens, its bests kept; a
    win in fewer moves betters one, more moves does not, whatever the score."""
    path = tmp_path / "pyramid.db"
    Store.open(path).close()
    with sqlite3.connect(path) as db:  # as version 6 left it: no score column, a best of 45 moves
        db.execute("DROP TABLE bests")
        db.execute("CREATE TABLE bests (game TEXT NOT NULL, variant TEXT NOT NULL, deal INTEGER NOT NULL,"
                   " moves INTEGER NOT NULL, seconds INTEGER NOT NULL, PRIMARY KEY (game, variant, deal)) WITHOUT ROWID")
        db.execute("INSERT INTO bests VALUES ('pyramid', 'three-pass/two', ?, 45, 100)", (DEAL,))
        db.execute("DROP TABLE daily_shares")  # not there yet (schema 11)
        db.execute("DROP TABLE deal_scores")  # nor this (schema 12)
        db.execute("DROP TABLE daily_deals")  # and the days played, as version 6 kept them
        db.execute("CREATE TABLE daily (day TEXT PRIMARY KEY, won INTEGER NOT NULL)")
        db.execute("PRAGMA user_version = 6")
    with Store.open(path) as store:
        old = store.best_of("pyramid", "three-pass/two", DEAL)
        assert old == DealBest(DEAL, 45, 100, None)
        assert improvement(DealBest(DEAL, 50, 90, 1290), old) is None
        assert improvement(DealBest(DEAL, 44, 90, 1000), old) == "moves"


def test_three_passes_shows_each_rows_bonus_where_it_is_won(tmp_path: Path) -> None:
    """Issue 47 ("score feedback"): a removal that empties a row rose as one "+175"; Microsoft shows the
    removal's points and the row's bonus apart ("+5", "+150 row"). Up to the winning removal (the
    win's own cue), the cues add up to the score."""
    import re

    session = session_on_deal(tmp_path)
    best, _ = lines_of(session)
    cues = []
    for move in best[:-1]:  # the last removal is the win's cue
        tap_move(session, move)
        feedback = session.feedback
        if move.kind == "remove" and feedback is not None:
            assert feedback.cue == "pair"
            cues.append((feedback.points, feedback.bonus))
    from pyramid.engine.rules import MSC_REMOVAL_POINTS

    assert all(points == MSC_REMOVAL_POINTS for points, _ in cues)
    bonuses = [int(re.fullmatch(r"\+(\d+) row", bonus).group(1)) for _, bonus in cues if bonus]  # type: ignore[union-attr]
    assert bonuses, "a row emptied shows its bonus"
    assert MSC_REMOVAL_POINTS * len(cues) + sum(bonuses) == session.screen.board.score  # type: ignore[attr-defined]
