"""Power cuts at a network table: one console killed with ``kill -9`` mid-match, then started again.

Continue on the restarted console brings back its game and the table (a
guest rejoins with its seat's token, a host reopens the table on the port it
listened on); the other console plays on meanwhile. At the end both games are
complete on both sides: no move lost, none played twice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from net_consoles import Console, good_moves, guest, host, kill_and_continue, stop_all, taps

MATCH = 16
#: How many of its moves the killed console has played, at least, when it is killed.
KILLED_AFTER = 12


@pytest.fixture
def consoles() -> Iterator[list[Console]]:
    started: list[Console] = []
    yield started
    stop_all(*started)


@pytest.mark.parametrize("killed", ["guest", "host"])
def test_a_console_killed_mid_match_continues_with_no_move_lost_or_doubled(
        tmp_path: Path, consoles: list[Console], killed: str) -> None:
    host_moves, guest_moves = good_moves(MATCH, "good"), good_moves(MATCH, "casual")
    slow = {"delay_ms": 150}  # the console to be killed plays slowly, so it is killed mid-match
    ann = host(tmp_path, "Ann", MATCH, f"wait:joined {taps(MATCH, host_moves)} wait:done ok",
               **(slow if killed == "host" else {}))
    consoles.append(ann)
    bob = guest(tmp_path, "Bob", ann.port(), f"wait:joined {taps(MATCH, guest_moves)} wait:done ok",
                **(slow if killed == "guest" else {}))
    consoles.append(bob)
    victim, survivor = (bob, ann) if killed == "guest" else (ann, bob)
    victim_moves = guest_moves if killed == "guest" else host_moves
    mine, theirs, saved, again = kill_and_continue(victim, survivor, victim_moves, MATCH, KILLED_AFTER, consoles)
    assert mine["moves"] == [str(move) for move in victim_moves]
    assert theirs["moves"] == [str(move) for move in (host_moves if killed == "guest" else guest_moves)]
    assert theirs["opponent"]["moves"] == len(victim_moves) and theirs["opponent"]["score"] == mine["score"]
    assert mine["opponent"]["moves"] == len(theirs["moves"]) and mine["opponent"]["score"] == theirs["score"]
    assert mine["match"] == theirs["match"] == MATCH
    resumed = next(state for state in again.states() if state["game"] is not None)
    assert resumed["game"]["moves"] == saved and resumed["game"]["table"]["players"] == ["Ann", "Bob"]
