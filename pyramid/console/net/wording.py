"""Every sentence the player reads about the network: the net layer posts codes, the console words them.

One module, so "Ann's console is not answering" is said the same way on the
duel table, on the table's screen and in the results.
"""

from __future__ import annotations

#: Why a join failed (:class:`~pyramid.net.events.JoinFailed` ``reason``), as the player reads it.
JOIN_FAILURES = {
    "full": "Someone already sits at that table.",
    "version": "That console runs another version of the tables.",
    "no_table": "That console has no table open.",
    "bad_token": "That table no longer keeps your seat.",
    "closed": "That table is closed.",
    "busy": "That console is too busy to answer; try again.",
    "unreachable": "No console answers at that address.",
    "protocol": "That console did not answer like a Pyramids table.",
}

#: Why a match was voided (:class:`~pyramid.net.errors.MatchVoidError` codes).
VOID_REASONS = {
    "illegal_move": "a move sent by the other console is not legal",
    "out_of_order": "the other console's moves arrived out of order",
    "changed_move": "the other console changed a move it had already played",
    "score_mismatch": "the other console claims a score its moves do not give",
    "wrong_match": "the other console is playing another match",
}


def join_failed(reason: str) -> str:
    return JOIN_FAILURES.get(reason, "The table could not be joined.")


def not_answering(name: str) -> str:
    return f"{name}'s console is not answering"


def back(name: str) -> str:
    return f"{name} is back"


def left(name: str, reason: str) -> str:
    """An opponent gone for good (:data:`~pyramid.net.events.OpponentLeftReason`)."""
    if reason == "closed":
        return f"{name} closed the table"
    if reason == "timeout":
        return f"{name}'s console stayed away too long: {name} left the table"
    if reason == "void":
        return "The match is void"
    return f"{name} left the table"


def void(reason: str) -> str:
    return f"The match is void: {VOID_REASONS.get(reason, 'the other console broke the rules of the table')}"


def progress(name: str, round_number: int, score: int, finished: bool) -> str:
    """The opponent's live progress in a few words, for the duel's detail line (legible at 320x240)."""
    if finished:
        return f"{name} finished: {score}"
    return f"{name}: round {round_number}, {score}"


def invite(name: str) -> str:
    return f"{name} invites you to a Pyramids table"


def invite_sent(name: str, delivered: bool) -> str:
    return f"Invite sent to {name}" if delivered else f"{name}'s console did not take the invite"


def listen_failed(port: int) -> str:
    return f"This console cannot open a table on port {port}; check [network] port in the settings file"


def discovery_failed() -> str:
    return "Tables on the network cannot be seen here; join by address"


def table_line(host: str, match: int, level: str, seats: int) -> str:
    """One table of the network menu: host, match number, maximum skill level, seats free."""
    free = "1 seat free" if seats else "full"
    return f"{host} · match {match} · up to {level} · {free}"
