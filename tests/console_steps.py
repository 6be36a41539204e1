"""Driving a session as a player does: a script of actions, a menu line chosen with ▲ ▼ and ✓, a move tapped."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from pyramid.actions import Action
from pyramid.console.menus import open_console
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.engine.board import Move
from pyramid.saved.store import Store


def console_at(path: Path, day: datetime.date, **settings: object) -> Session:
    """A console on the main menu, its data in ``path`` with ``settings`` stored, its calendar at ``day``."""
    store = Store.open(path / "pyramid.db")
    for name, value in settings.items():
        store.set_setting(name, value)
    session = Session(None, DealChoice(), store=store, today=lambda: day)
    open_console(session)
    return session


def parse_script(text: str) -> list[Action]:
    """The actions of a script of the scripted mode's words (no waits), as ``--script`` reads them."""
    return [Action.parse(word) for word in text.split()]


def play(session: Session, script: str) -> dict[str, Any]:
    """Play the actions of ``script`` (the scripted mode's words); the state after them."""
    for action in parse_script(script):
        session.handle(action)
    return session.state()


def choose(session: Session, line: str) -> dict[str, Any]:
    """Move to the menu line that starts with ``line`` with ▲/▼, as a player would, and press ✓."""
    menu = session.state()["menu"]
    index = next(i for i, item in enumerate(menu["items"]) if item.startswith(line))
    steps = index - menu["selected"]
    return play(session, ("down " * steps if steps > 0 else "up " * -steps) + "ok")


def tap_move(session: Session, move: Move) -> None:
    """Play Pyramid ``move`` the way a touchscreen player would: tap its cards (a pyramid card, the waste
    top, the stock top where the rules let it play: tapped last, as a first tap there draws), or the stock."""
    targets = sorted(session.screen.table.targets_of(move), key=lambda target: target == "stock")  # type: ignore[attr-defined]
    for target in targets:
        session.handle(Action.tap(0, 0), lambda x, y: target)
