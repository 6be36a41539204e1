"""Two real console processes play Pyramids through the table server (issue 30), as on the home network.

Each console has its own data directory and a settings file with the `[network]` lines make-server.sh
prints; the server is a real Mosquitto made by the script (tests/table_server.py). The host opens
its table with `--table open`; the guest finds it on the server with `--table join:server:HOST_NAME`
(the host player's name, or its account). Then kill -9 of either console, and of the server, mid-match,
and Continue: nothing lost or doubled.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from net_consoles import Console, good_moves, kill_and_continue, played, stop_all, taps
from table_server import Broker, Server, make_server

MATCH = 16
KILLED_AFTER = 12


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    broker = Broker(make_server(tmp_path / "server", "ann", "bob", certified=["dee"])[0])
    try:
        broker.start()
        yield broker
    finally:
        broker.kill()


@pytest.fixture
def consoles() -> Iterator[list[Console]]:
    started: list[Console] = []
    yield started
    stop_all(*started)


def settings(server: Server, directory: Path, user: str) -> list[str]:
    """``--settings`` with the lines make-server.sh tells the console's owner to write."""
    return ["--settings", str(server.settings_file(user, directory / "pyramid.toml"))]


def server_host(server: Server, directory: Path, script: str, delay_ms: int = 0, name: str = "Ann") -> Console:
    return Console(directory / name, name).start(
        script, "--table", "open", "--table-port", "0", "--table-address", "127.0.0.1", "--deal-number", str(MATCH),
        *settings(server, directory / name, name.lower()), delay_ms=delay_ms)


def server_guest(server: Server, directory: Path, script: str, whom: str = "Ann", delay_ms: int = 0) -> Console:
    return Console(directory / "Bob", "Bob").start(
        script, "--table", f"join:server:{whom}", *settings(server, directory / "Bob", "bob"), delay_ms=delay_ms)


@pytest.mark.parametrize("host, whom", [("Ann", "Ann"), ("Dee", "dee")], ids=["password, by name", "certificate, by account"])
def test_two_consoles_play_a_whole_match_through_the_server(tmp_path: Path, broker: Broker,
                                                             consoles: list[Console], host: str, whom: str) -> None:
    """Bob joins by the host's player name or account; Ann signs in with a password, Dee with a client
    certificate."""
    ann_moves, bob_moves = good_moves(MATCH, "good"), good_moves(MATCH, "casual")
    ann = server_host(broker.server, tmp_path, f"wait:joined {taps(MATCH, ann_moves)} wait:done ok", name=host)
    consoles.append(ann)
    bob = server_guest(broker.server, tmp_path, f"wait:joined {taps(MATCH, bob_moves)} wait:done ok", whom)
    consoles.append(bob)
    ann_final, bob_final = ann.finish(), bob.finish()
    mine, theirs = ann_final["game"], bob_final["game"]
    assert mine["match"] == theirs["match"] == MATCH
    assert mine["moves"] == [str(move) for move in ann_moves]
    assert theirs["moves"] == [str(move) for move in bob_moves]
    for seen, own, name in ((mine["opponent"], theirs, "Bob"), (theirs["opponent"], mine, host)):
        assert (seen["name"], seen["round"], seen["score"], seen["moves"]) == (name, own["round"], own["score"],
                                                                               len(own["moves"]))
    assert mine["table"]["players"] == theirs["table"]["players"] == [host, "Bob"]
    assert mine["table"]["via"] == theirs["table"]["via"] == "server"
    assert ann.states()[0]["game"]["table"]["via"] == "server"  # offered on the server from the start
    assert ann_final["screen"] == bob_final["screen"] == "duel_result"


@pytest.mark.parametrize("killed", ["guest", "host", "server"])
def test_a_kill_mid_match_then_continue_loses_and_doubles_nothing(tmp_path: Path, broker: Broker,
                                                                   consoles: list[Console], killed: str) -> None:
    host_moves, guest_moves = good_moves(MATCH, "good"), good_moves(MATCH, "casual")
    slow = {"delay_ms": 150}
    ann = server_host(broker.server, tmp_path, f"wait:joined {taps(MATCH, host_moves)} wait:done ok",
                      **(slow if killed != "guest" else {}))
    consoles.append(ann)
    bob = server_guest(broker.server, tmp_path, f"wait:joined {taps(MATCH, guest_moves)} wait:done ok",
                       **(slow if killed != "host" else {}))
    consoles.append(bob)
    if killed == "server":
        ann.wait_for_trace(lambda states: played(states) >= KILLED_AFTER)
        broker.kill()
        broker.start()
        ann_final, bob_final = ann.finish(), bob.finish()
        mine, theirs = ann_final["game"], bob_final["game"]
        assert mine["moves"] == [str(move) for move in host_moves]
        assert theirs["moves"] == [str(move) for move in guest_moves]
    else:
        victim, survivor = (bob, ann) if killed == "guest" else (ann, bob)
        victim_moves = guest_moves if killed == "guest" else host_moves
        user = "bob" if killed == "guest" else "ann"
        mine, theirs, _, _ = kill_and_continue(victim, survivor, victim_moves, MATCH, KILLED_AFTER, consoles,
                                               *settings(broker.server, victim.directory, user))
        assert mine["moves"] == [str(move) for move in victim_moves]
        assert theirs["moves"] == [str(move) for move in (host_moves if killed == "guest" else guest_moves)]
    assert theirs["opponent"]["moves"] == len(mine["moves"]) and theirs["opponent"]["score"] == mine["score"]
    assert mine["opponent"]["moves"] == len(theirs["moves"]) and mine["opponent"]["score"] == theirs["score"]
    assert mine["table"]["via"] == theirs["table"]["via"] == "server"


def test_watching_a_new_round_and_leaving_through_the_server(tmp_path: Path, broker: Broker,
                                                             consoles: list[Console]) -> None:
    """After the match each watches the other's game, both agree on a new round, and Bob leaves in it:
    Ann reads him gone; the match and the new round (counted from the first look) count on each side."""
    from pyramid.saved.stats import NETWORK_GAME

    moves = good_moves(MATCH)
    watch = " ".join(["right"] * len(moves))
    after = f"wait:done ok ok {watch} back down ok wait wait"
    ann = server_host(broker.server, tmp_path, f"wait:joined {taps(MATCH, moves)} {after} wait:done")
    consoles.append(ann)
    bob = server_guest(broker.server, tmp_path, f"wait:joined {taps(MATCH, moves)} {after}")
    consoles.append(bob)
    bob_final, ann_final = bob.finish(), ann.finish()
    for console in (ann, bob):
        watching = [state for state in console.states() if state["screen"] == "watch"]
        assert len(watching) == len(moves) + 1
    new_ann, new_bob = ann_final["game"], bob_final["game"]
    assert new_ann["match"] == new_bob["match"] != MATCH and new_ann["moves"] == new_bob["moves"] == []
    assert new_ann["table"]["via"] == new_bob["table"]["via"] == "server"
    assert new_ann["opponent"]["status"] == "left" and new_ann["table"]["state"] == "closed"
    # The match (a tie: the same moves), then the new round Bob left at once: it counts from the first look
    # (issue 47), Bob's loss and Ann's win.
    ann_stats, bob_stats = ann.stats()[(NETWORK_GAME, "Bob")], bob.stats()[(NETWORK_GAME, "Ann")]
    assert (ann_stats.played, ann_stats.won, bob_stats.played, bob_stats.won) == (2, 1, 2, 0)
