"""The day's deal among friends, the console's side of sharing: this player's daily results, sent
through the table server, and marked in the saved data once the server has them (issue 50).

Why a room of its own: a game's flow decides what a result is and when it counts; the saved data
keeps what is to share (:mod:`pyramid.saved.shares`); the network carries it. This room only moves
what the saved data keeps to the network and back, so that a result made while the server was out of
reach, or before a power cut, goes when the server is back, once. Sharing is on when a table server
is set and the player has not turned "Share my daily results" off; the network is started for it
only when there is something to send.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Protocol

from pyramid.saved.settings import PlayerSettings
from pyramid.saved.stats import PyramidVariant
from pyramid.saved.store import Store

if TYPE_CHECKING:
    from pyramid.console.net.tables import Tables
    from pyramid.net.events import DailyShared

log = logging.getLogger(__name__)


class SharingConsole(Protocol):
    """What sharing reads of the console: its saved data, the player's settings and the network tables."""

    store: Store
    settings: PlayerSettings
    tables: Tables


class ServerSharing:
    """This player's daily results to friends (:class:`~pyramid.console.protocols.DailySharing`): whether
    they are shared, and sending what is kept to send."""

    def __init__(self, console: SharingConsole) -> None:
        self.console = console

    def sharer(self) -> str | None:
        """The player's name a daily result is shared under, or None when results are not shared (no
        table server set, no network, or "Share my daily results" turned off)."""
        tables = self.console.tables
        if tables.server is None or not tables.available or not self.console.settings.share_daily:
            return None
        return tables.name

    def send_pending(self) -> None:
        """Hand the network every result (and withdrawal) the server has not taken yet; nothing when
        there is nothing to send, no table server, or no network."""
        tables, store = self.console.tables, self.console.store
        if tables.server is None or not tables.available:
            return
        pending = store.pending_shares()
        if not pending:
            return
        from pyramid.net.daily_result import ResultRefused, parse_result  # with the network, not at the start

        network = tables.network()
        for share in pending:
            variant = PyramidVariant.parse(share.variant)
            if variant is None:
                continue
            if share.result is None:
                network.withdraw_daily(share.day, variant)
                continue
            try:
                network.share_daily(parse_result(share.result))
            except ResultRefused as error:  # written by another version: never sent, never asked again
                log.warning("a daily result of %s is not shared: %s", share.day, error)
                store.share_taken(share.day, share.variant, shared=True)

    def on_shared(self, event: DailyShared) -> None:
        """The table server took a result or a withdrawal: not sent again."""
        self.console.store.share_taken(event.day, event.variant, event.shared)

    def stop_sharing(self) -> None:
        """"Share my daily results" turned off: every result shared, or about to be, is withdrawn."""
        self.console.store.withdraw_shares()
        self.send_pending()
