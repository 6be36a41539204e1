"""The day's deal among friends with real console processes (issue 50), as in a house of consoles.

Four consoles, each `python -m pyramid --display headless` with its own data directory and the settings
file make-server.sh tells its owner to write, meet through a real Mosquitto made by the script. Ann wins
today's daily deal, Bob plays it into a loss, Cat wins it after taking a move back (aided, and slower);
each waits until the server has taken its result (``wait:shared``) and exits. Dee switches on afterwards:
the calendar's today, "That day among friends", and the board shows the three, proven and in order; she
watches Ann's game. Cat turns "Share my daily results" off, and Dee's board shows two.

The taps are a touchscreen player's, at the centre of each card on the console's own layout.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from net_consoles import Console, stop_all
from pyramid.engine.board import Board, Move
from pyramid.engine.daily import daily_board
from pyramid.engine.rules import RETROHUB
from pyramid.engine.solver import solve
from pyramid.saved.store import Store
from pyramid.scripting import MOST_FRIENDS as MOST
from table_server import Broker, Server, make_server, running

from table_taps import taps

#: The daily deal's variant on a console as it comes (the default preset, no redeal).
RULES = RETROHUB.with_redeals(0)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    yield from running(make_server(tmp_path / "server", "ann", "bob", "cat", "dee")[0])


@pytest.fixture
def consoles() -> Iterator[list[Console]]:
    started: list[Console] = []
    yield started
    stop_all(*started)


def line_lost(board: Board) -> list[Move]:
    """A player who draws until the stock is out, then takes the first pair seen: a lost game."""
    game, moves = board.copy(), []
    while game.status() == "playing":
        move = next((move for move in game.legal_moves if move.kind == "draw"), game.legal_moves[0])
        game.push(move)
        moves.append(move)
    assert game.status() != "cleared", "this day's deal falls to a player who only draws: take another line"
    return moves


def run(broker: Broker, directory: Path, name: str, script: str, consoles: list[Console],
        delay_ms: int = 0) -> Console:
    """``name``'s console (account ``name.lower()``), started with ``script``."""
    console = Console(directory / name, name)
    settings = broker.server.settings_file(name.lower(), console.directory / "pyramid.toml")
    consoles.append(console.start(script, "--settings", str(settings), delay_ms=delay_ms))
    return console


def to_line(items: list[str], selected: int, wanted: str) -> str:
    """▲/▼ from ``selected`` to the line that starts with ``wanted``, and ✓."""
    index = next(i for i, item in enumerate(items) if item.startswith(wanted))
    return ("down " * (index - selected) if index > selected else "up " * (selected - index)) + "ok"


def menu_after(broker: Broker, directory: Path, name: str, script: str, consoles: list[Console]) -> dict[str, Any]:
    """The menu ``name``'s console shows once ``script`` is played (to learn a menu's lines, as a player
    reads them)."""
    state = run(broker, directory, name, script, consoles).finish()
    assert state["menu"] is not None, state
    return dict(state["menu"])


def pending(console: Console) -> list[datetime.date]:
    with Store.open(console.directory / "data" / "pyramid.db") as store:
        return [share.day for share in store.pending_shares()]


def board_items(states: list[dict[str, Any]]) -> list[str]:
    """The lines of the last friends' board in ``states``."""
    return next(state["menu"]["items"] for state in reversed(states) if state["screen"] == "friends_board")


def test_three_consoles_share_the_day_and_a_fourth_sees_them_proven_in_order(
        broker: Broker, tmp_path: Path, consoles: list[Console]) -> None:
    today = datetime.date.today()
    solution = solve(daily_board(today, RULES), optimal=True, max_seconds=30).moves
    menu = menu_after(broker, tmp_path / "first", "Dee", "", consoles)
    daily = to_line(menu["items"], menu["selected"], "Daily deal")
    ann = run(broker, tmp_path, "Ann", f"{daily} {taps(daily_board(today, RULES), solution)} wait:shared", consoles)
    bob = run(broker, tmp_path, "Bob", f"{daily} {taps(daily_board(today, RULES), line_lost(daily_board(today, RULES)))}"
                                       " wait:shared", consoles)
    first, rest = solution[:1], solution  # Cat takes her first move back, then plays the whole line
    cat = run(broker, tmp_path, "Cat", f"{daily} {taps(daily_board(today, RULES), first)} undo "
                                       f"{taps(daily_board(today, RULES), rest)} wait:shared", consoles, delay_ms=150)
    finals = [console.finish() for console in (ann, bob, cat)]
    if today != datetime.date.today():
        pytest.skip("midnight passed during the test: the consoles played two days' deals")
    for console, final, status in zip((ann, bob, cat), finals, ("cleared", "no_moves", "cleared")):
        assert final["game"]["status"] == status, (console.name, final["game"]["status"])
        assert pending(console) == [], f"{console.name}: the server took the result"

    calendar = to_line(menu["items"], menu["selected"], "Daily deals calendar")
    dee = run(broker, tmp_path, "Dee", f"{calendar} ok down ok wait:friends:3 down up ok back", consoles)
    dee.finish()
    states = dee.states()
    screens = [state["screen"] for state in states]
    assert screens[-6:] == ["calendar_day", "friends_board", "friends_board", "friends_board", "replay",
                            "friends_board"], screens
    board = states[-3]["menu"]
    names = [item.split(":")[0] for item in board["items"]]
    assert names == ["1. Ann", "2. Cat", "3. Bob"], board["items"]
    assert board["items"][0].endswith("✓ par") and board["items"][1].endswith("✓ par (aided)")
    assert "✓" not in board["items"][2] and board["selected"] == 0
    assert states[-2]["screen"] == "replay", "✓ on Ann's line watches her game"
    assert states[-1]["menu"] == board, "back on the board, as it was"

    cats_menu = menu_after(broker, tmp_path, "Cat", "", consoles)
    to_settings = to_line(cats_menu["items"], cats_menu["selected"], "Settings")
    settings = menu_after(broker, tmp_path, "Cat", to_settings, consoles)
    share = to_line(settings["items"], settings["selected"], "Share my daily results")
    cat = run(broker, tmp_path, "Cat", f"{to_settings} {share} wait:shared", consoles)
    assert "Share my daily results: off" in cat.finish()["menu"]["items"]
    assert pending(cat) == [], "the withdrawal was taken"
    dee = run(broker, tmp_path, "Dee", f"{calendar} ok down ok wait:friends:2 down", consoles)
    dee.finish()
    assert [item.split(":")[0] for item in board_items(dee.states())] == ["1. Ann", "2. Bob"]


def test_a_result_made_while_the_server_is_out_of_reach_goes_when_it_is_back(
        broker: Broker, tmp_path: Path, consoles: list[Console]) -> None:
    """Bob plays the day's deal with the server down: the result is kept (through the console's exit);
    his next start sends it, once, and Dee's board has it."""
    today = datetime.date.today()
    menu = menu_after(broker, tmp_path / "first", "Dee", "", consoles)
    daily = to_line(menu["items"], menu["selected"], "Daily deal")
    broker.kill()
    bob = run(broker, tmp_path, "Bob", f"{daily} {taps(daily_board(today, RULES), line_lost(daily_board(today, RULES)))}",
              consoles)
    assert bob.finish()["game"]["status"] == "no_moves"
    assert pending(bob) == [today], "kept for when the server is back"
    broker.start()
    run(broker, tmp_path, "Bob", "wait:shared", consoles).finish()
    assert pending(bob) == []
    calendar = to_line(menu["items"], menu["selected"], "Daily deals calendar")
    dee = run(broker, tmp_path, "Dee", f"{calendar} ok down ok wait:friends:1 down", consoles)
    dee.finish()
    assert [item.split(":")[0] for item in board_items(dee.states())] == ["1. Bob"]


def showing(states: list[dict[str, Any]]) -> list[str] | None:
    """The lines of the friends' board when the last state traced is one, else None."""
    return states[-1]["menu"]["items"] if states and states[-1]["screen"] == "friends_board" else None


def peak_rss_kib(console: Console) -> int:
    """The console process's peak resident memory so far (VmHWM), in KiB."""
    assert console.process is not None
    status = Path(f"/proc/{console.process.pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))


def test_a_console_showing_the_board_plays_on_through_ten_thousand_hostile_results(
        tmp_path: Path, consoles: list[Console]) -> None:
    """Dee's console has today's board open while five accounts send 10,000 results (tests/
    test_server_daily.py's flood) and Ann shares hers: the console takes its next actions, its board
    shows the six accounts, Ann's as she played, and its peak memory grows by a bounded amount."""
    import subprocess

    from pyramid.net import events as ev
    from pyramid.net.server import topics
    from test_net_match import Endpoint
    from test_server_daily import FLOOD, FLOODERS, flood_of, result

    today = datetime.date.today()
    line = [str(move) for move in solve(daily_board(today, RULES), optimal=True, max_seconds=30).moves]
    yesterday = today - datetime.timedelta(days=1)
    yesterdays = [str(move) for move in solve(daily_board(yesterday, RULES), max_seconds=30).moves]
    for broker in running(make_server(tmp_path / "server", "ann", "dee", *FLOODERS)[0]):
        menu = menu_after(broker, tmp_path / "first", "Dee", "", consoles)
        calendar = to_line(menu["items"], menu["selected"], "Daily deals calendar")
        dee = run(broker, tmp_path, "Dee", f"{calendar} ok down ok wait:friends:6 down wait:friends:{MOST}", consoles)
        dee.wait_for_trace(lambda states: showing(states) is not None)
        time.sleep(1)  # the board's subscription made
        before = peak_rss_kib(dee)
        ann = Endpoint("Ann", server=broker.server.account("ann"))
        try:
            publishers = [subprocess.Popen([*broker.server.client("mosquitto_pub", account), "-q", "1", "-r", "-l",
                                            "-t", topics.daily(today.isoformat(), "retrohub", "none", account)],
                                           stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                          for account in FLOODERS]
            for publisher, account in zip(publishers, FLOODERS):
                flood = flood_of(today, line, yesterdays, account, FLOOD // len(FLOODERS))
                publisher.communicate(b"\n".join(flood.payloads) + b"\n", timeout=120)
            anns = result(today, line, "Ann")
            ann.net.share_daily(anns)
            ann.wait(ev.DailyShared)
            states = dee.wait_for_trace(lambda states: len(showing(states) or ()) == 1 + len(FLOODERS), limit=90)
            after = peak_rss_kib(dee)
        finally:
            ann.net.stop()
        print(f"\nDee's console: peak memory {before / 1024:.0f} MiB with the board open, {after / 1024:.0f} MiB "
              f"after {FLOOD} results ({(after - before) / 1024:.1f} MiB more)")
        items = board_items(states)
        assert any(item.split(": ")[0].endswith("Ann") and "✓" in item for item in items), items
        assert (after - before) / 1024 < 20, "bounded: the waiting room, the inbox and the board, not the flood"
