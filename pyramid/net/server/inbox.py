"""The table server's messages waiting to be routed, shared fairly between the accounts that sent them.

Why: aiomqtt keeps what the broker delivered in one queue of a bounded size and drops what comes
once it is full. With one queue for every sender, an account flooding this console's topics (a seat
request, garbage, an advert, as fast as the broker takes them) crowded the opponent's moves out: a
move lost there is a gap in the opponent's game, which this console's replay takes as against the
rules, and the match ended for a flood that was nobody's in it (seen in CI, a loaded two-core run).

Here each sender (the account the topic names, which the broker's ACL vouches for) has its own
line; the lines are read in turn; and when the inbox holds its bound, the newest message of the
longest line is the one dropped, the incoming one when its own line is the longest. So a sender that
keeps within its share (the bound divided among the senders) loses nothing, however much another
one sends, and what one sender sent is read in the order it was sent.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Callable

import aiomqtt

from pyramid.net.context import log
from pyramid.net.server import topics


class FairInbox(asyncio.Queue[aiomqtt.Message]):
    """An ``asyncio.Queue`` of the broker's messages for aiomqtt's ``queue_type``: never full to the
    client (it makes room itself, as the module says), read one sender at a time in turn."""

    def _init(self, maxsize: int) -> None:
        self._lines: OrderedDict[str, deque[aiomqtt.Message]] = OrderedDict()
        self._held = 0
        self._told: set[str] = set()  # senders whose dropped message was logged since their line emptied
        self.dropped = 0

    def qsize(self) -> int:
        return self._held

    def empty(self) -> bool:
        return self._held == 0

    def full(self) -> bool:
        return False

    def _put(self, item: aiomqtt.Message) -> None:
        found = topics.read(item.topic.value)
        sender = "" if found is None else found.sender  # a topic out of shape: one line for all of them
        line = self._lines.get(sender)
        if 0 < self.maxsize <= self._held:
            longest = max(self._lines, key=lambda name: len(self._lines[name]))
            if (0 if line is None else len(line)) + 1 >= len(self._lines[longest]):
                self._drop(sender, item)
                return
            self._drop(longest, self._lines[longest].pop())
            self._held -= 1
        if line is None:
            line = self._lines[sender] = deque()
        line.append(item)
        self._held += 1

    def _get(self) -> aiomqtt.Message:
        sender, line = next(iter(self._lines.items()))
        item = line.popleft()
        self._held -= 1
        if line:
            self._lines.move_to_end(sender)
        else:
            del self._lines[sender]
            self._told.discard(sender)
            if not self._lines:
                self._told.clear()  # even a sender whose message was dropped before it had a line
        return item

    def dropped_one(self, topic: str) -> None:
        """A message under ``topic`` was dropped (nothing here: :func:`telling`'s inbox tells it on)."""

    def _drop(self, sender: str, item: aiomqtt.Message) -> None:
        self.dropped += 1
        self.dropped_one(item.topic.value)
        if sender not in self._told:
            self._told.add(sender)
            log.warning("the table server's messages from %s came faster than this console reads them: "
                        "its newest ones dropped", sender or "an unknown topic")


def telling(on_drop: Callable[[str], None]) -> type[FairInbox]:
    """A :class:`FairInbox` class whose inboxes tell ``on_drop`` the topic of each message they drop
    (aiomqtt makes its queue itself, from a class: the session's daily results read their boards again)."""

    class TellingInbox(FairInbox):
        def dropped_one(self, topic: str) -> None:
            on_drop(topic)

    return TellingInbox
