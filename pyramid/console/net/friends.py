"""The day's deal among friends, the console's side: this player's daily results, sent through the
table server and marked in the saved data once the server has them; and the board of friends' results
followed, each proven by the network before it comes here (issue 50).

Why a room of its own: a game's flow decides what a result is and when it counts; the saved data
keeps what is to share (:mod:`pyramid.saved.shares`); the network carries it. This room only moves
what the saved data keeps to the network and back, so that a result made while the server was out of
reach, or before a power cut, goes when the server is back, once. Sharing is on when a table server
is set and the player has not turned "Share my daily results" off; the network is started for it
only when there is something to send. The boards a screen shows are followed (a day's deal under a
variant, or the seven days of a week), at most :data:`MAX_ENTRIES` accounts' results of each kept.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from pyramid.console.protocols import Followed
from pyramid.saved.settings import PlayerSettings
from pyramid.saved.stats import PyramidVariant
from pyramid.saved.store import Store

if TYPE_CHECKING:
    from pyramid.console.net.tables import Tables
    from pyramid.net.daily_result import ProvenResult
    from pyramid.net.events import DailyResultGone, DailyResultSeen, DailyShared

log = logging.getLogger(__name__)

#: Accounts' results kept for each board followed (a club of a thousand fits twice over). The first
#: board's are whole (some 1.8 KiB a result with its line: bench_daily_board.py), 3.6 MB at most; the
#: other six of a week's without their lines (some 0.45 KiB), 5.4 MB at most: 9 MB for a week view.
MAX_ENTRIES = 2000


class SharingConsole(Protocol):
    """What sharing reads of the console: its saved data, the player's settings and the network tables."""

    store: Store
    settings: PlayerSettings
    tables: Tables


class ServerFriends:
    """This player's daily results to friends (:class:`~pyramid.console.protocols.DailyFriends`): whether
    they are shared, and sending what is kept to send."""

    def __init__(self, console: SharingConsole) -> None:
        self.console = console
        #: The boards followed (a day's, or the seven of a week), and the proven results of each, by account.
        self.following: tuple[Followed, ...] = ()
        self._entries: dict[Followed, dict[str, ProvenResult]] = {}
        #: Counts the changes of the entries: a screen ranks them again only when it moved.
        self.version = 0

    @property
    def available(self) -> bool:
        """Whether friends' results can be had: a table server is set and this console has a network."""
        return self.console.tables.server is not None and self.console.tables.available

    @property
    def account(self) -> str | None:
        """This console's account on the table server (its own result on a board is under it)."""
        server = self.console.tables.server
        return None if server is None else server.user

    def entries(self, board: Followed) -> Mapping[str, ProvenResult]:
        """The proven results of ``board`` (one of those followed) that came, by account."""
        return self._entries.get(board, {})

    def follow(self, boards: Sequence[Followed]) -> None:
        """Show these boards' results from now on (none: none); what came of the others is forgotten.
        The first board's games can be watched; the others' (a week's six days before it) are kept
        without their lines, as a week only sums them."""
        wanted = tuple(boards)
        if wanted == self.following or not self.available:
            return
        self.following = wanted
        self._entries = {board: self._entries.get(board, {}) for board in wanted}
        self.version += 1
        from pyramid.net.server.daily import DailyBoard  # with the network, not at the start

        self.console.tables.network().follow_daily([DailyBoard(board.day, board.variant) for board in wanted])

    def on_seen(self, event: DailyResultSeen) -> None:
        """A friend's result, proven: kept when it is of a board followed, within the bound."""
        proven = event.proven
        board = Followed(proven.result.day, proven.result.variant)
        entries = self._entries.get(board)
        if entries is None or (account := proven.account) not in entries and len(entries) >= MAX_ENTRIES:
            return
        if board != self.following[0]:
            proven = dataclasses.replace(proven, result=dataclasses.replace(proven.result, line=()))
        entries[account] = proven
        self.version += 1

    def on_gone(self, event: DailyResultGone) -> None:
        variant = PyramidVariant.parse(event.variant)
        entries = None if variant is None else self._entries.get(Followed(event.day, variant))
        if entries is not None and entries.pop(event.account, None) is not None:
            self.version += 1

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
