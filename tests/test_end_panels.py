"""Every end panel shows its choices without scrolling at 320x240, in every language, and says the
score once (issue 47, item 6).

A lost daily deal under Three passes had seven lines ("Score 30" and "You: 30 points · Par: 510
points" among them) and only two of its five choices in view: Undo, Play again and Retry were below
the fold. The games here are real: the daily deal (or a score challenge) lost by play at random, or
won by the solver's line, then each language's panel laid out at 320x240 with the real font.
"""

from __future__ import annotations

import datetime
import random
from pathlib import Path

import pygame
import pytest

from console_steps import choose, tap_move
from display.layout import Layout
from display.text import text_width
from pyramid.console.catalogue import say, use_language
from pyramid.console.menus import open_console
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.engine.board import Board
from pyramid.engine.rules import preset
from pyramid.engine.solver import solve
from pyramid.languages import LANGUAGES
from pyramid.saved.store import Store
from pyramid.view import PanelView

DAY = datetime.date(2026, 12, 3)


@pytest.fixture(autouse=True)
def fonts() -> None:
    pygame.font.init()


def ended(path: Path, rules: str, menu_line: str, won: bool, server: bool = False) -> Session:
    """A console whose game of ``menu_line`` (the daily deal, a score challenge) is over: won by the
    solver's line, or lost by play at random (the first seed that loses). With ``server``, the console
    has a table server (its results shared with nobody: the network is never made)."""
    for seed in range(50):
        store = Store.open(path / f"{rules}-{seed}.db")
        tables = None
        if server:
            from pyramid.console.net.tables import Tables
            from pyramid.net.server.account import ServerAccount

            store.set_setting("share_daily", False)
            tables = Tables(lambda name: None, server=ServerAccount("127.0.0.1", 8883, "ann", path / "password", None))  # type: ignore[arg-type,return-value]
        session = Session(preset(rules), DealChoice(), store=store, today=lambda: DAY, tables=tables)
        session.rng = random.Random(seed)
        open_console(session)
        choose(session, menu_line)
        board = session.screen.board  # type: ignore[attr-defined]
        if won:
            for move in solve(Board(board.deal, board.rules), optimal=True).moves:
                tap_move(session, move)
        rng = random.Random(seed)
        while board.status() == "playing":
            removals = [move for move in board.legal_moves if move.kind not in ("draw", "redeal")]
            tap_move(session, rng.choice(removals) if removals and rng.random() < 0.7 else rng.choice(board.legal_moves))
        if board.status() == ("cleared" if won else "no_moves"):
            session.screen.run.judging = False  # type: ignore[attr-defined]
            return session
        store.close()
    raise AssertionError(f"no game of {rules} ended {'won' if won else 'lost'}")


def assert_fits(session: Session, score: int | None) -> None:
    """Every choice in view, no text cut, and ``score`` said once (None: a cleared "cards left" game,
    whose panel says no card is left, with no number)."""
    for language in LANGUAGES:
        use_language(language)
        panel = session.view().panel
        assert isinstance(panel, PanelView)
        placed = Layout((320, 240), 0, measure=text_width).panel(panel)
        texts = [line.text for line in placed.lines]
        assert len(placed.items) == len(panel.items), (language, panel.title, texts, panel.items)
        assert "…" not in texts, (language, texts)
        assert placed.box.bottom <= 240 and all(rect.bottom <= 240 for _, rect in placed.items)
        if score is not None:
            said = [line for line in (panel.title, *panel.lines) if str(score) in line]
            assert len(said) == 1, (language, said)


@pytest.mark.parametrize("rules", ["retrohub", "three-pass", "classic"])
@pytest.mark.parametrize("won", [False, True], ids=["lost", "won"])
def test_the_daily_deals_end_panel_shows_every_choice_at_320x240(tmp_path: Path, rules: str, won: bool) -> None:
    session = ended(tmp_path, rules, say("menu.daily_deal"), won)
    board = session.screen.board  # type: ignore[attr-defined]
    cards_left = board.rules.scoring == "cards_left"
    assert_fits(session, None if cards_left and won else board.cards_to_clear() if cards_left else board.score)


@pytest.mark.parametrize("rules", ["retrohub", "classic"])
@pytest.mark.parametrize("won", [False, True], ids=["lost", "won"])
def test_with_a_table_server_the_daily_deals_end_panel_offers_the_friends_and_fits(tmp_path: Path, rules: str,
                                                                                  won: bool) -> None:
    """Issue 50: "Today among friends" is one more choice on the daily deal's panel: still all at 320x240."""
    session = ended(tmp_path, rules, say("menu.daily_deal"), won, server=True)
    panel = session.view().panel
    assert panel is not None and say("end.friends") in panel.items
    board = session.screen.board  # type: ignore[attr-defined]
    cards_left = board.rules.scoring == "cards_left"
    assert_fits(session, None if cards_left and won else board.cards_to_clear() if cards_left else board.score)


@pytest.mark.parametrize("rules", ["retrohub", "three-pass"])
def test_a_daily_deal_cleared_short_of_its_best_score_offers_to_go_for_it_and_fits(tmp_path: Path, rules: str) -> None:
    """Issue 51: "Go for its best score" is one more choice on a cleared deal's panel (the daily deal's
    here, with the friends too: the most choices a cleared game has): still all at 320x240."""
    session = ended(tmp_path, rules, say("menu.daily_deal"), True, server=True)
    board, run = session.screen.board, session.screen.run  # type: ignore[attr-defined]
    assert board.score < run.score_par, "the shortest line does not make this day's best score"
    panel = session.view().panel
    assert panel is not None and {say("end.friends"), say("end.challenge")} <= set(panel.items)
    assert_fits(session, board.score)


def test_a_score_challenge_lost_shows_every_choice_at_320x240(tmp_path: Path) -> None:
    session = ended(tmp_path, "three-pass", say("menu.score_challenge"), False)
    assert_fits(session, session.screen.board.score)  # type: ignore[attr-defined]
