"""Every sentence the player reads about the network: the net layer posts codes, the console words them.

One module, so "Ann's console is not answering" is said the same way on the
duel table, on the table's screen and in the results; the words themselves are
in the catalogue (``net.*`` keys).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyramid.console.catalogue import say
from pyramid.console.wording import level_name

if TYPE_CHECKING:
    from pyramid.net.events import ServerState
    from pyramid.net.server.account import ServerAccount
    from pyramid.net.views import TableAt

#: Why a join failed (:class:`~pyramid.net.events.JoinFailed` ``reason``): the codes the catalogue words.
JOIN_FAILURES = ("full", "version", "no_table", "bad_token", "closed", "busy", "level", "unreachable", "outside",
                 "protocol")

#: Why a match was voided (:class:`~pyramid.net.errors.MatchVoidError` codes).
VOID_REASONS = ("illegal_move", "out_of_order", "changed_move", "score_mismatch", "wrong_match")


def join_failed(reason: str, via: str = "lan") -> str:
    if via == "server" and reason == "unreachable":
        return say("net.join_failed.not_on_server")
    return say(f"net.join_failed.{reason}" if reason in JOIN_FAILURES else "net.join_failed")


def joining(where: TableAt, host_name: str | None = None) -> str:
    """ "Joining 192.168.1.20 port 47312…", or through the table server "Joining Ann's table…"."""
    if where.via == "server":
        return say("net.joining_server", name=host_name or where.host)
    return say("net.joining", host=where.host, port=where.port)


def not_answering(name: str) -> str:
    return say("net.not_answering", name=name)


def back(name: str) -> str:
    return say("net.back", name=name)


def left(name: str, reason: str) -> str:
    """An opponent gone for good (:data:`~pyramid.net.events.OpponentLeftReason`)."""
    if reason in ("closed", "timeout", "void"):
        return say(f"net.left.{reason}", name=name)
    return say("net.left", name=name)


def void(reason: str) -> str:
    why = say(f"net.void.{reason}" if reason in VOID_REASONS else "net.void.rules")
    return say("net.void", reason=why)


def progress(name: str, round_number: int, score: int, finished: bool) -> str:
    """The opponent's live progress in a few words, for the duel's detail line (legible at 320x240)."""
    if finished:
        return say("net.progress_finished", name=name, score=score)
    return say("net.progress", name=name, round=round_number, score=score)


def invite(name: str) -> str:
    return say("net.invite", name=name)


def invite_sent(name: str, delivered: bool) -> str:
    return say("net.invite_sent" if delivered else "net.invite_refused", name=name)


def listen_failed(port: int) -> str:
    return say("net.listen_failed", port=port)


def discovery_failed() -> str:
    return say("net.discovery_failed")


def table_line(host: str, match: int, level: str, seats: int, via: str = "lan", account: str | None = None) -> str:
    """One table of the network menu: host (marked when on the table server, with its ``account`` when
    another server table shows the same name), match number, maximum skill level, seats free."""
    free = say("net.seat_free") if seats else say("net.full")
    return say("net.table_line", host=shown_name(host, via, account), match=match, level=level_name(level), free=free)


def shown_name(name: str, via: str, account: str | None = None) -> str:
    """A console's player as the network menus name it: marked when reached through the table server
    (with its ``account`` when another server console shows the same name), so that one seen both
    at home and on the server reads as two lines told apart ("Bob", "Bob (server)")."""
    if via != "server":
        return name
    if account is None:
        return say("net.on_server", name=name)
    return say("net.on_server_as", name=name, account=account)


def server_line(server: ServerAccount | None, state: ServerState | None) -> str:
    """The table server in one line of the network menu: not set, or its state."""
    if server is None:
        return say("net.server.none")
    return say(f"net.server.{state.state if state is not None else 'connecting'}")


def server_detail(server: ServerAccount | None, state: ServerState | None) -> str:
    """What the server's line opens: how to set one, or which server, as whom, and why not connected."""
    if server is None:
        return say("net.server.none_detail")
    why = state.detail if state is not None and state.detail else ""
    return say("net.server.detail", address=server.address, user=server.user) + (f" · {why}" if why else "")
