"""A hostile peer against a real console process with an open table: it never crashes, and a real
opponent can still sit and play afterwards.

The test client (raw sockets on 127.0.0.1, the ideas of test_net_hostile.py)
sends random bytes, a 10 MB line, broken JSON, JSON of the wrong types, a
move before its hello, a half message that never ends, and 200 connections
at once; every connection must be closed by the console, which keeps its
table open. Then a second console process joins and both play a whole match.
"""

from __future__ import annotations

import json
import random
import socket
import unicodedata
from pathlib import Path
from typing import Iterator

import pytest

from hostile_sockets import closed_by_peer, connect

from net_consoles import Console, good_moves, guest, host, stop_all, taps
from pyramid.saved.stats import NETWORK_GAME

MATCH = 16
GUARD = 30.0


@pytest.fixture
def consoles() -> Iterator[list[Console]]:
    started: list[Console] = []
    yield started
    stop_all(*started)


def line(data: dict[str, object]) -> bytes:
    return json.dumps(data).encode() + b"\n"


def send_ten_megabytes(port: int) -> socket.socket:
    sock = connect(port, GUARD)
    chunk, sent = b"x" * 65536, 0
    try:
        while sent < 10 * 1024 * 1024:
            sock.sendall(chunk)
            sent += len(chunk)
    except (BrokenPipeError, ConnectionResetError, socket.timeout):
        pass
    return sock


PAYLOADS = [
    bytes(random.Random(1).randrange(256) for _ in range(5000)),
    b"not json at all\n",
    b'{"t": "hello", "v": 3, "name": \n',
    line({"t": "hello", "v": "one", "name": ["Mallory"]}),
    line({"t": "move", "match": MATCH, "n": 1, "move": "turn"}),
    line({"t": "hello", "v": 3, "name": "Mallory"}) + b"[" * 60_000 + b"\n",
    b'{"t":"hello","v":3,"na',  # and never the rest: dropped at the hello deadline
]


def test_a_hostile_peer_leaves_the_console_running_and_the_table_open(tmp_path: Path,
                                                                      consoles: list[Console]) -> None:
    ann_moves, bob_moves = good_moves(MATCH, "good"), good_moves(MATCH, "casual")
    ann = host(tmp_path, "Ann", MATCH, f"wait:joined {taps(MATCH, ann_moves)} wait:done ok")
    consoles.append(ann)
    port = ann.port()
    one_at_a_time = []
    for payload in PAYLOADS:
        sock = connect(port, GUARD)
        sock.sendall(payload)
        one_at_a_time.append(sock)
    one_at_a_time.append(send_ten_megabytes(port))
    assert all(closed_by_peer(sock) for sock in one_at_a_time)
    crowd = []
    for _ in range(200):
        try:
            crowd.append(socket.create_connection(("127.0.0.1", port), timeout=GUARD))
        except OSError:
            break  # the backlog is full: refusing is fine too
    assert len(crowd) >= 64
    for sock in crowd:
        sock.settimeout(GUARD)
    assert all(closed_by_peer(sock) for sock in crowd)
    assert ann.process is not None and ann.process.poll() is None  # still running, still waiting at its table
    # A real opponent sits and both play the whole match.
    bob = guest(tmp_path, "Bob", port, f"wait:joined {taps(MATCH, bob_moves)} wait:done ok")
    consoles.append(bob)
    ann_final, bob_final = ann.finish(), bob.finish()
    mine, theirs = ann_final["game"], bob_final["game"]
    assert mine["opponent"]["name"] == "Bob" and mine["opponent"]["moves"] == len(bob_moves)
    assert mine["opponent"]["score"] == theirs["score"] and theirs["opponent"]["score"] == mine["score"]
    assert ann.stats()[(NETWORK_GAME, "Bob")].played == 1  # the console's data is intact and counted the match


def read_until(sock: socket.socket, kind: str) -> dict[str, object]:
    """The first message of type ``kind`` the console sends (those before it are read and passed over)."""
    buffer = b""
    while True:
        while b"\n" not in buffer:
            data = sock.recv(65536)
            assert data, f"the console closed before sending {kind!r}"
            buffer += data
        first, buffer = buffer.split(b"\n", 1)
        message = json.loads(first)
        if message["t"] == kind:
            return dict(message)


def sit_down(port: int, name: str = "Mallory") -> socket.socket:
    """A raw peer that sits at the table as a console does: hello, join, and its resend after the accept."""
    sock = connect(port, GUARD)
    sock.sendall(line({"t": "hello", "v": 3, "name": name}) + line({"t": "join", "token": "", "level": "good"}))
    accept = read_until(sock, "accept")
    sock.sendall(line({"t": "resend", "match": accept["match"], "next": 1}))
    return sock


def test_a_match_the_peer_calls_void_is_the_peer_leaving(tmp_path: Path, consoles: list[Console]) -> None:
    """Issue 26, item 8: a peer's ``leave("void")`` showed "The match is void" and counted a win; then it
    counted for nobody, which let any loser erase a loss (issue 46, item 2). Void is this console's own
    replay's to decide: the peer's word is a leave, and the player who stayed wins."""
    ann_moves = good_moves(MATCH, "good")
    ann = host(tmp_path, "Ann", MATCH, f"wait:joined {taps(MATCH, ann_moves, 0, 3)} wait:done")
    consoles.append(ann)
    mallory = sit_down(ann.port())
    for number in (1, 2, 3):
        read_until(mallory, "move")
    mallory.sendall(line({"t": "leave", "reason": "void"}))
    final = ann.finish()
    assert final["game"]["opponent"]["status"] == "left" and final["game"]["table"]["state"] == "closed"
    won = ann.stats()[(NETWORK_GAME, "Mallory")]
    assert (won.played, won.won) == (1, 1), "Mallory left the match under way: Ann wins it"
    mallory.close()


def test_two_proposals_in_one_write_after_new_round_start_the_first_and_the_console_plays_on(
        tmp_path: Path, consoles: list[Console]) -> None:
    """Issue 26, item 3: the host accepted m−1, the network side had replaced it with 7, and the
    console exited 2 ("the opponent did not propose match m-1"). A proposal now stands until the
    match changes: the second is not taken."""
    from pyramid.engine.duel.board import DuelBoard

    ann_moves, theirs = good_moves(MATCH, "good"), good_moves(MATCH, "casual")
    ann = host(tmp_path, "Ann", MATCH, f"wait:joined {taps(MATCH, ann_moves)} wait:done ok down ok wait wait")
    consoles.append(ann)
    mallory = sit_down(ann.port())
    board = DuelBoard.for_match(MATCH)
    batch = b""
    for number, move in enumerate(theirs, start=1):
        board.push(move)
        batch += line({"t": "move", "match": MATCH, "n": number, "move": str(move)})
    batch += line({"t": "status", "match": MATCH, "round": board.round_number, "score": board.score,
                   "moves": len(theirs), "finished": True})
    mallory.sendall(batch)
    proposed = int(read_until(mallory, "rematch")["match"])  # Ann chose "New round"
    assert proposed > 1
    mallory.sendall(line({"t": "rematch", "match": proposed - 1}) + line({"t": "rematch", "match": 7}))
    accepted = read_until(mallory, "rematch_ok")
    assert accepted["match"] == proposed - 1  # both proposed: the lower number, Mallory's first
    mallory.sendall(line({"t": "resend", "match": proposed - 1, "next": 1}))
    final = ann.finish()  # exit 0: before, exit 2
    assert final["game"]["match"] == proposed - 1 and final["game"]["moves"] == []
    mallory.close()


@pytest.mark.parametrize("name", ["♠\u034f♠", "Bob♥\ufe0f", "\u0301\u0301", "Ann\u0489", "😀"])
def test_a_name_the_font_cannot_draw_never_crashes_the_console(tmp_path: Path, consoles: list[Console],
                                                               name: str) -> None:
    """Issue 26, item 1: such a name crashed the console at every start ("Text has zero width").

    The host draws every frame (``--display headless`` renders as a screen would), with the
    name on the table's lines, and saves the table with it; it exits 0 and starts again."""
    moves = good_moves(MATCH, "good")
    ann = host(tmp_path, "Ann", MATCH, f"wait:joined {taps(MATCH, moves, 0, 2)}")
    consoles.append(ann)
    stranger = sit_down(ann.port(), name)
    final = ann.finish()
    assert "failed" not in ann.stderr, ann.stderr  # drawn, not caught as a failing screen
    assert final["game"]["opponent"]["name"] == unicodedata.normalize("NFC", name).replace("\ufe0f", "")
    stranger.close()
    again = Console(tmp_path / "Ann", "Ann").start("back")  # Continue offered with that name saved: drawn
    consoles.append(again)
    assert again.finish()["screen"] == "menu" and "failed" not in again.stderr, again.stderr
