"""A save that fails during play (a full card) is told on the game screen, once, and play goes on."""

from __future__ import annotations

from pathlib import Path

from pyramid.actions import Action
from pyramid.console.menus import open_console
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.engine.rules import Redeals
from pyramid.saved.database import DATABASE_NAME
from pyramid.saved.store import Store

from disks import fill
from test_store_hostile import small_disk  # noqa: F401 (the fixture is used by name)


def draw(session: Session) -> None:
    session.handle(Action.tap(0, 0), lambda x, y: "stock")


def test_a_full_disk_during_a_game_is_told_once_over_the_game_and_play_goes_on(small_disk: Path) -> None:  # noqa: F811
    store = Store.open(small_disk / DATABASE_NAME)
    session = Session(None, DealChoice(number=7), store=store)
    open_console(session, "pyramid", Redeals(None))  # unlimited redeals: the stock can be drawn for ever
    assert session.view().screen == "game"
    filler = fill(small_disk)
    for _ in range(2000):
        draw(session)
        if session.view().screen != "game":
            break
    view = session.view()
    assert view.screen == "notice" and view.panel is not None and view.panel.title == "Not saved"
    assert "Could not save the game" in view.panel.lines[0]
    assert view.table is not None, "the notice is drawn over the game"
    session.handle(Action("ok"))
    moves = len(session.screen.table.board.move_stack)  # type: ignore[attr-defined]
    for _ in range(50):
        draw(session)
        assert session.view().screen == "game", "told once, not after every move"
    assert len(session.screen.table.board.move_stack) == moves + 50  # type: ignore[attr-defined]
    filler.unlink()
    draw(session)  # room again: this move is saved, and the saved game is the game on screen
    saved = store.load_progress("pyramid")
    assert saved is not None and len(saved.moves) == moves + 51
    store.close()
