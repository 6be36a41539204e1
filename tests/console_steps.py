"""Driving a session as a player does: a script of actions, or a menu line chosen with ▲ ▼ and ✓."""

from __future__ import annotations

from typing import Any

from pyramid.actions import parse_script
from pyramid.console.session import Session


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
