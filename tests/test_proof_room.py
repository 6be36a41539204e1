"""Friends' results waiting for the prover (pyramid/net/server/proofs.py, issue 50): the latest of
each topic, once, within a bound; a flood takes no one else's place; nothing stale is shown."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from pyramid.net.server.proofs import ProofRoom, Waiting

ANN, MALLORY = "pyramids/v1/daily/2026-12-06/retrohub/none/ann", "pyramids/v1/daily/2026-12-06/retrohub/none/mallory"


def prove_all(room: ProofRoom) -> list[tuple[Waiting, bool]]:
    """Every result the prover would take, in turn, with whether its verdict stands."""
    done = []
    while (waiting := room.take()) is not None:
        done.append((waiting, room.judged()))
    return done


def test_a_flood_under_one_topic_waits_in_one_place_and_a_friend_is_proven_next() -> None:
    room = ProofRoom()
    assert room.offer(MALLORY, b"m0") == "waits"
    taken = room.take()
    assert taken == Waiting(MALLORY, b"m0")
    for number in range(1, 10_000):
        room.offer(MALLORY, b"m%d" % number)
    room.offer(ANN, b"ann")
    assert len(room) == 2 and room.waiting_bytes == len(b"m9999") + len(b"ann")
    assert room.judged() is False, "m0 is not Mallory's latest: not shown"
    assert [waiting for waiting, _ in prove_all(room)] == [Waiting(MALLORY, b"m9999"), Waiting(ANN, b"ann")]


def test_a_newer_result_waits_behind_the_others() -> None:
    room = ProofRoom()
    for topic, payload in ((MALLORY, b"m1"), (ANN, b"ann"), (MALLORY, b"m2")):
        room.offer(topic, payload)
    assert [waiting.topic for waiting, _ in prove_all(room)] == [ANN, MALLORY]


def test_a_payload_judged_once_is_never_proven_again_unless_it_was_withdrawn() -> None:
    room = ProofRoom()
    room.offer(ANN, b"ann")
    assert prove_all(room) == [(Waiting(ANN, b"ann"), True)]
    assert room.offer(ANN, b"ann") == "known", "sent again (a new connection)"
    assert room.offer(ANN, b"ann2") == "waits" and room.take() == Waiting(ANN, b"ann2")
    assert room.offer(ANN, b"ann2") == "known", "the one being proven"
    room.offer(ANN, b"ann")
    assert room.judged() is False and prove_all(room) == [(Waiting(ANN, b"ann"), True)], "back to the first: proven again"
    room.withdraw(ANN)
    assert room.offer(ANN, b"ann") == "waits", "withdrawn, then shared again: a new result"


def test_a_result_withdrawn_while_it_is_proven_is_not_shown() -> None:
    room = ProofRoom()
    room.offer(ANN, b"ann")
    room.take()
    room.withdraw(ANN)
    assert room.judged() is False
    assert room.offer(ANN, b"ann") == "waits"


def test_beyond_the_bound_a_result_is_dropped_with_the_older_one_of_its_topic() -> None:
    room = ProofRoom(max_bytes=10)
    assert room.offer(ANN, b"12345") == room.offer(MALLORY, b"12345") == "waits"
    other = ANN.replace("ann", "bob")
    assert room.offer(other, b"1") == "full" and room.waiting_bytes == 10
    assert room.offer(MALLORY, b"1234") == "waits", "a smaller one in its own place fits"
    assert room.offer(ANN, b"1234567") == "full", "too big for the room left: dropped with the older one"
    assert len(room) == 1 and room.waiting_bytes == 4 and not room.idle
    assert room.take() == Waiting(MALLORY, b"1234")
    room.offer(MALLORY, b"123456789ab")
    assert room.judged() is False, "a newer one came, dropped for room: the one proven is not the latest"
    assert room.idle


def test_boards_no_longer_followed_are_forgotten() -> None:
    room = ProofRoom()
    room.offer(ANN, b"ann")
    yesterday = MALLORY.replace("2026-12-06", "2026-12-05")
    room.offer(yesterday, b"m")
    room.take()
    room.keep(lambda topic: "2026-12-05" in topic)
    assert room.judged() is False, "Ann's board is no longer followed"
    assert len(room) == 1 and room.waiting_bytes == 1


OPERATIONS = st.lists(st.tuples(st.sampled_from(["offer", "withdraw", "take", "judged"]), st.sampled_from([ANN, MALLORY]),
                                st.binary(min_size=1, max_size=6)), max_size=60)


@settings(max_examples=300, deadline=None)
@given(OPERATIONS)
def test_a_verdict_shown_is_always_of_the_latest_result_under_its_topic(operations: list[tuple[str, str, bytes]]) -> None:
    """Whatever comes in whatever order: a verdict that stands is of the latest payload under its
    topic (never one replaced or withdrawn since); the bytes counted are the bytes waiting, within the
    bound; and once everything is proven every topic's latest result was judged (unless one was
    dropped for room: it comes again after the overflow)."""
    room, latest, taken, full = ProofRoom(max_bytes=10), {}, None, False
    for operation, topic, payload in operations:
        if operation == "offer":
            full = room.offer(topic, payload) == "full" or full
            latest[topic] = payload
        elif operation == "withdraw":
            room.withdraw(topic)
            latest.pop(topic, None)
        elif operation == "take" and taken is None:
            taken = room.take()
        elif operation == "judged" and taken is not None:
            if room.judged():
                assert latest.get(taken.topic) == taken.payload
            taken = None
        assert room.waiting_bytes <= 10
    if taken is not None and room.judged():
        assert latest.get(taken.topic) == taken.payload
    for waiting, stands in prove_all(room):
        if stands:
            assert latest.get(waiting.topic) == waiting.payload
    if not full:
        assert {room.offer(topic, payload) for topic, payload in latest.items()} <= {"known"}, "all judged"
