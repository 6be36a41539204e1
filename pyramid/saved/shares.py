"""The daily results this console shares with friends on a table server, kept until the server has them.

Why in the saved data: a result is shared when its game ends, and the server may be out of reach
then, or the power cut before it answered; issue 50 asks that such a result be sent when the server
is back, once. So the result to share is written in the same transaction that counts the game
(:meth:`~pyramid.saved.store.Store.record_result`), and marked sent only when the server has taken it.
The first game of a day's deal under a variant is the one shared, as the streaks count it; a later
game of the same deal is not. Turning sharing off turns each shared result into a withdrawal, sent
the same way.
"""

# Annotations are evaluated, not postponed: cheaper named tuples at start-up (see pyramid.view).

import datetime
from typing import NamedTuple, Optional


class DailyShare(NamedTuple):
    """This console's result of the daily deal of ``day`` under ``variant`` (its statistics key) as it
    goes to the table server: its published bytes, or ``None`` for its withdrawal."""

    day: datetime.date
    variant: str
    result: Optional[bytes]
