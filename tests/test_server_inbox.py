"""The table server's inbox: an account flooding this console's topics cannot crowd out another's messages.

The real-broker version of this (Mallory flooding while Ann and Bob play a match) is
``test_net_server.py::test_a_hostile_account_cannot_stop_a_match_nor_grow_a_consoles_memory``; here the
inbox alone, with aiomqtt's own message records, so every drop is counted exactly.
"""

from __future__ import annotations

import asyncio
import logging

import aiomqtt
import pytest
from hypothesis import given, strategies as st

from pyramid.net.server import topics
from pyramid.net.server.inbox import FairInbox


def message(topic: str, payload: bytes) -> aiomqtt.Message:
    return aiomqtt.Message(topic, payload, qos=1, retain=False, mid=0, properties=None)


def drain(inbox: FairInbox) -> list[aiomqtt.Message]:
    return [inbox.get_nowait() for _ in range(inbox.qsize())]


def test_a_flood_loses_its_own_newest_messages_and_none_of_the_opponents(caplog: pytest.LogCaptureFixture) -> None:
    inbox = FairInbox(maxsize=256)
    with caplog.at_level(logging.WARNING, logger="pyramid.net"):
        for n in range(1000):
            inbox.put_nowait(message(topics.seat("ann", "mallory"), b"%d" % n))
            if n % 10 == 0:
                inbox.put_nowait(message(topics.play("bob", "ann"), b"%d" % (n // 10)))
    assert inbox.qsize() == 256 and inbox.dropped == 1000 + 100 - 256
    read = drain(inbox)
    bob = [m.payload for m in read if m.topic.value == topics.play("bob", "ann")]
    mallory = [int(m.payload) for m in read if m.topic.value != topics.play("bob", "ann")]
    assert bob == [b"%d" % n for n in range(100)], "every message of Bob, in the order sent"
    assert mallory == sorted(mallory) and len(mallory) == 156, "Mallory's kept in order, within what is left"
    said = [r.getMessage() for r in caplog.records if "came faster" in r.getMessage()]
    assert said == ["the table server's messages from mallory came faster than this console reads them: "
                    "its newest ones dropped"], "said once, for the flooder only"


def test_the_senders_are_read_in_turn_each_in_its_order() -> None:
    inbox = FairInbox(maxsize=0)  # no bound: aiomqtt's 0 is "unbounded"
    for n in range(3):
        inbox.put_nowait(message(topics.advert("mallory"), b"m%d" % n))
    inbox.put_nowait(message(topics.status("bob"), b"b0"))
    inbox.put_nowait(message("elsewhere/topic", b"x0"))
    inbox.put_nowait(message(topics.status("bob"), b"b1"))
    assert [m.payload for m in drain(inbox)] == [b"m0", b"b0", b"x0", b"m1", b"b1", b"m2"]
    assert inbox.empty() and inbox.dropped == 0


def test_the_client_reads_it_as_aiomqtt_reads_its_queue() -> None:
    """aiomqtt waits on ``get()``; a message put from its callback wakes it."""
    async def main() -> bytes:
        inbox = FairInbox(maxsize=4)
        waiting = asyncio.create_task(inbox.get())
        await asyncio.sleep(0)
        inbox.put_nowait(message(topics.play("bob", "ann"), b"move"))
        got = await asyncio.wait_for(waiting, 5)
        assert isinstance(got.payload, bytes)
        return got.payload

    assert asyncio.run(main()) == b"move"


@given(st.lists(st.tuples(st.sampled_from(["ann", "cyd", "dee", "eve"]), st.integers(1, 40)), max_size=30),
       st.integers(4, 64))
def test_a_sender_within_its_share_never_loses_a_message(bursts: list[tuple[str, int]], bound: int) -> None:
    """Whatever the others send, a sender holding no more than the bound shared among the senders
    loses nothing, and nobody's messages are read out of order."""
    inbox = FairInbox(maxsize=bound)
    sent: dict[str, list[int]] = {}
    fair_share = bound // 5  # four senders and Bob
    for sender, count in bursts:
        for _ in range(count):
            sent.setdefault(sender, []).append(len(sent.get(sender, [])))
            inbox.put_nowait(message(topics.status(sender), b"%d" % sent[sender][-1]))
    for n in range(fair_share):
        inbox.put_nowait(message(topics.play("bob", "me"), b"%d" % n))
    assert inbox.qsize() <= bound
    read: dict[str, list[int]] = {}
    for m in drain(inbox):
        found = topics.read(m.topic.value)
        assert found is not None and isinstance(m.payload, bytes)
        read.setdefault(found.sender, []).append(int(m.payload))
    assert read.get("bob", []) == list(range(fair_share))
    for sender, numbers in read.items():
        assert numbers == sorted(numbers) and set(numbers) <= set(sent.get(sender, range(fair_share)))


@pytest.mark.parametrize(("topic", "read"), [
    ("pyramids/v1/play/bob/ann", topics.Addressed("play", "ann", "bob")),
    ("pyramids/v1/seats/ann/bob", topics.Addressed("seats", "ann", "bob")),
    ("pyramids/v1/invites/ann/bob", topics.Addressed("invites", "ann", "bob")),
    ("pyramids/v1/adverts/bob", topics.Addressed("adverts", None, "bob")),
    ("pyramids/v1/status/bob", topics.Addressed("status", None, "bob")),
    ("pyramids/v1/daily/2026-12-06/retrohub/none/bob", topics.Addressed("daily", None, "bob")),
    ("pyramids/v1/daily/2026-12-06/retrohub/bob", None),
    ("pyramids/v1/status/bob/extra", None), ("pyramids/v2/status/bob", None), ("pyramids/v1/play/Bob!/ann", None),
])
def test_a_topic_is_read_as_what_it_says_whoever_reads_it(topic: str, read: topics.Addressed | None) -> None:
    assert topics.read(topic) == read
    assert topics.parse(topic, "ann") == (None if read is None else topics.Received(read.kind, read.sender))
    assert topics.parse(topic, "cyd") == (None if read is None or read.to is not None else topics.Received(read.kind, read.sender))
