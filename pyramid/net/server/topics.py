"""The table server's topics (docs/network.md, "Tables beyond the home" and "The day's deal among
friends"), written and read back.

Versioned under ``pyramids/v1/``; the ACL (firmware/server/etc/mosquitto/pyramids/acl)
lets an account publish only where it stands as the sender, so the sender read
from a topic is who the broker let publish it, never a claim of the message.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from pyramid.net.server.account import ACCOUNT

ROOT = "pyramids/v1"

Kind = Literal["adverts", "status", "seats", "invites", "play", "daily"]


class Received(NamedTuple):
    """Where a message came in: the kind of topic and the account that sent it."""

    kind: Kind
    sender: str


def advert(account: str) -> str:
    return f"{ROOT}/adverts/{account}"


def status(account: str) -> str:
    return f"{ROOT}/status/{account}"


def seat(host: str, guest: str) -> str:
    return f"{ROOT}/seats/{host}/{guest}"


def invite(to: str, sender: str) -> str:
    return f"{ROOT}/invites/{to}/{sender}"


def play(sender: str, to: str) -> str:
    return f"{ROOT}/play/{sender}/{to}"


def daily(day: str, preset: str, redeals: str, account: str) -> str:
    """Where ``account`` publishes its result of the daily deal of ``day`` (ISO) under a variant (its preset
    and redeal word): one topic a day, variant and account, so a console subscribes to the days it shows."""
    return f"{ROOT}/daily/{day}/{preset}/{redeals}/{account}"


def daily_board(day: str, preset: str, redeals: str) -> str:
    """The subscription to every account's result of one day under one variant (one board)."""
    return daily(day, preset, redeals, "+")


def subscriptions(account: str) -> list[str]:
    """What a console reads: every advert and status, and what is addressed to it."""
    return [f"{ROOT}/adverts/+", f"{ROOT}/status/+", seat(account, "+"), invite(account, "+"), play("+", account)]


class Addressed(NamedTuple):
    """A topic read as what it says: its kind, the account it is addressed to (None when to everyone)
    and the account that sent it."""

    kind: Kind
    to: str | None
    sender: str


def read(topic: str) -> Addressed | None:
    """What a topic of this protocol says, whoever reads it, or None for anything else."""
    parts = topic.split("/")
    if "/".join(parts[:2]) != ROOT:
        return None
    found: Addressed | None
    match parts[2:]:
        case ["adverts", sender]:
            found = Addressed("adverts", None, sender)
        case ["status", sender]:
            found = Addressed("status", None, sender)
        case ["seats", to, sender]:
            found = Addressed("seats", to, sender)
        case ["invites", to, sender]:
            found = Addressed("invites", to, sender)
        case ["play", sender, to]:
            found = Addressed("play", to, sender)
        case ["daily", _, _, _, sender]:
            found = Addressed("daily", None, sender)
        case _:
            found = None
    return found if found is not None and ACCOUNT.match(found.sender) else None


def parse(topic: str, account: str) -> Received | None:
    """The kind and sender of a topic this console reads, or None for anything else."""
    found = read(topic)
    if found is None or found.to not in (None, account):
        return None
    return Received(found.kind, found.sender)
