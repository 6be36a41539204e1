"""A Pyramid game carried with no screen at all (issue 48: each protocol no wider than its callers need).

``game_flow`` asks the console for ``GameServices`` only — its data, rules,
clock, dice and searches — so a game can be dealt, played and counted
by anything that gives those, here a plain record with a real store, and never
a screen stack.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from pyramid.console.dealing import DealRequest, numbered
from pyramid.console.game_flow import GAME, new_run, result_of
from pyramid.console.protocols import DealChoice, GameServices
from pyramid.console.thinking import Thinker
from pyramid.engine.rules import Rules, preset
from pyramid.engine.solver import solve
from pyramid.saved.store import Store

from fake_clock import FakeClock


@dataclass
class Services:
    """The console's services with no screen: what a game's flow is given."""

    store: Store
    rules: Rules = field(default_factory=lambda: preset("classic"))
    rng: random.Random = field(default_factory=lambda: random.Random(4))
    today: Callable[[], datetime.date] = lambda: datetime.date(2026, 12, 6)
    clock: Callable[[], float] = field(default_factory=lambda: FakeClock(100.0))
    fixed_deal: DealChoice = field(default_factory=DealChoice)
    thinker: Thinker = field(default_factory=Thinker.inline)
    friends: "NoTableServer" = field(default_factory=lambda: NoTableServer())  # its flow's DailySharing


class NoTableServer:
    """A console without a table server: its daily results are shared with nobody."""

    def sharer(self) -> str | None:
        return None

    def send_pending(self) -> None:
        """Nothing is ever kept to send."""


def test_a_game_is_dealt_played_and_counted_with_no_screen(tmp_path: Path) -> None:
    services: GameServices = Services(Store.open(tmp_path / "pyramid.db"))
    rules = services.rules
    dealt = numbered(rules, 18, None)
    run = new_run(services, rules, DealRequest(18), dealt)
    assert services.store.load_progress(GAME) is not None, "saved before its first move"
    line = solve(run.board).moves
    assert line, "deal 18 of Classic is won"
    for move in line:
        run.board.push(move)
        run.played(move)
    assert run.over and run.board.status() == "cleared"
    result = result_of(run.progress, run.board)
    stats = services.store.stats(GAME, result.variant)
    assert (stats.played, stats.won) == (1, 1) and run.bettered is not None  # a first win is a best
    assert services.store.load_progress(GAME) is None, "a game over is no longer saved"
