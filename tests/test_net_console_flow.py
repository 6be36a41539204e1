"""The network screens in-process: a Session with its tables over a recording network, fed events.

The events are the network layer's own values, handed to the session as the
main loop does (``Session.post_event``); the network object only records the
calls, so these tests need no socket. Also here: the player's name setting and
the ``[network]`` table of the settings file.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from pyramid.actions import Action
from pyramid.console.menus import open_console
from pyramid.console.net.tables import Tables
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.engine.duel.ai import play_match
from pyramid.engine.rules import Redeals
from pyramid.net import events as ev
from pyramid.net.advert import TableAd
from pyramid.net.limits import DEFAULT_PORT, Limits
from pyramid.net.link import MatchLink
from pyramid.net.protocol import Move
from pyramid.net.settings import read_network_settings
from pyramid.net.views import TableAt, TableView
from pyramid.saved.settings import PlayerSettings
from pyramid.saved.stats import NETWORK_GAME
from pyramid.saved.store import Store
from pyramid.scripting import ScriptWait

from console_steps import parse_script
from fake_clock import FakeClock

INVITE = ev.InviteReceived("Ann", "192.168.1.20", 47312, 77)


class RecordingNetwork:
    """Stands for pyramid.net.network.Network: records the calls, keeps the link a table would have."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.calls: list[tuple[Any, ...]] = []
        self.link: MatchLink | None = None

    def listen(self, address: str = "", port: int = DEFAULT_PORT) -> None:
        self.calls.append(("listen", address, port))

    def browse(self) -> None:
        self.calls.append(("browse",))

    def open_table(self, match: int, level: str, address: str = "", port: int = DEFAULT_PORT,
                   resume: MatchLink | None = None) -> MatchLink:
        self.calls.append(("open_table", match, level, address, port))
        self.link = resume or MatchLink("host", match, level)
        return self.link

    def join(self, host: str, port: int, resume: MatchLink | None = None, level: str = "casual") -> None:
        self.calls.append(("join", host, port))
        self.link = resume

    def sit(self, where: TableAt, resume: MatchLink | None = None, level: str = "casual") -> None:
        assert where.via == "lan", "these tests have no table server"
        self.join(where.host, where.port, resume, level)

    def close_table(self) -> None:
        self.calls.append(("close_table",))
        self.link = None

    def invite(self, address: str, port: int = DEFAULT_PORT) -> None:
        self.calls.append(("invite", address, port))

    def table_view(self) -> TableView | None:
        return None if self.link is None else self.link.table(self.name, "127.0.0.1", 47312)

    def stop(self) -> None:
        self.calls.append(("stop",))


class Networks:
    """The factory the app would give: every network made, in order."""

    def __init__(self) -> None:
        self.made: list[RecordingNetwork] = []

    def __call__(self, name: str) -> RecordingNetwork:
        self.made.append(RecordingNetwork(name))
        return self.made[-1]

    @property
    def last(self) -> RecordingNetwork:
        return self.made[-1]


def new_session(tmp_path: Path, networks: Networks | None = None, deal_number: int | None = None) -> Session:
    store = Store.open(tmp_path / "pyramid.db")
    tables = Tables(networks, 47312)  # type: ignore[arg-type]
    tables.own_addresses = lambda: ["192.168.1.10"]  # this console's addresses, as /proc/net would give them
    session = Session(None, DealChoice(number=deal_number), store=store, tables=tables)
    open_console(session)
    return session


def press(session: Session, script: str) -> dict[str, Any]:
    for action in parse_script(script):
        session.handle(action)
    return session.state()


def choose(session: Session, label: str) -> dict[str, Any]:
    items = session.state()["menu"]["items"]
    session.screen.selected = items.index(label)  # type: ignore[attr-defined]
    return press(session, "ok")


def network_menu(session: Session) -> dict[str, Any]:
    choose(session, "Pyramids")
    return choose(session, "Play on the network")


# -- the invite panel -------------------------------------------------------------------
def test_an_invite_is_shown_over_a_menu(tmp_path: Path) -> None:
    session = new_session(tmp_path, Networks())
    choose(session, "Settings")
    session.post_event(INVITE)
    state = session.state()
    assert state["screen"] == "invite" and state["menu"]["items"] == ["Join", "Not now"]
    assert session.view().panel.title == "Ann invites you to a Pyramids table"
    assert session.view().menu.title == "Settings"  # drawn over the menu the player was on
    assert press(session, "down ok")["screen"] == "settings"  # Not now


def test_an_invite_waits_while_a_game_is_played_and_shows_when_it_is_paused(tmp_path: Path) -> None:
    from pyramid.console.game_screen import start_pyramid

    session = new_session(tmp_path, Networks(), deal_number=7)
    start_pyramid(session, Redeals(0).allowance)
    assert session.state()["game"]["status"] == "playing"
    session.post_event(INVITE)
    assert session.state()["screen"] == "game"  # held: never over a game in progress
    press(session, "left right")
    assert session.state()["screen"] == "game"
    assert press(session, "help")["screen"] == "invite"  # the game is paused: now it shows
    assert press(session, "down ok")["screen"] == "assists"  # Not now: back to the pause menu


def test_an_invite_waits_for_the_end_of_a_duel(tmp_path: Path) -> None:
    session = new_session(tmp_path, Networks(), deal_number=16)
    from pyramid.console.duel.menus import play_computer

    play_computer(session)
    session.post_event(INVITE)
    assert session.state()["screen"] == "duel"
    screen = session.screen
    for move in play_match(16, "casual").moves:  # the whole game, as picks would play it
        screen.board.push(move)  # type: ignore[attr-defined]
        screen.moved(move, screen.board.round_number)  # type: ignore[attr-defined]
        assert session.screen is screen
    press(session, "left")  # any action after the game ends lets the held invite show
    assert session.state()["screen"] == "invite"


def test_join_from_an_invite_asks_for_the_seat_and_a_seat_opens_the_table(tmp_path: Path) -> None:
    networks = Networks()
    session = new_session(tmp_path, networks)
    session.post_event(INVITE)
    state = press(session, "ok")
    assert state["screen"] == "joining"
    assert networks.last.calls[-1] == ("join", "192.168.1.20", 47312)
    networks.last.link = MatchLink("guest", 77, "good", token="0" * 32, opponent_name="Ann",
                                   address=("192.168.1.20", 47312))
    session.post_event(ev.Seated("Ann", 77, "good", False))
    state = session.state()
    assert state["screen"] == "duel" and state["game"]["match"] == 77
    assert state["game"]["opponent"]["name"] == "Ann" and state["game"]["table"]["players"] == ["Ann", "Player"]
    assert session.store.has_progress("pyramids")  # saved at once, with its table
    assert "table" in session.store.load_progress("pyramids").context


def test_a_refused_join_is_worded(tmp_path: Path) -> None:
    session = new_session(tmp_path, Networks())
    session.post_event(INVITE)
    press(session, "ok")
    session.post_event(ev.JoinFailed("full", "127.0.0.1:1 refused the seat (full)"))
    assert session.state()["screen"] == "notice"
    assert session.view().panel.lines == ("Someone already sits at that table.",)


# -- the network menu and the table -------------------------------------------------------
def test_the_network_menu_listens_shows_tables_live_and_stops_when_left(tmp_path: Path) -> None:
    networks = Networks()
    session = new_session(tmp_path, networks)
    state = network_menu(session)
    assert state["screen"] == "network_menu"
    assert state["menu"]["items"] == ["Open a table", "Join by address", "Table server: not set"]
    assert networks.last.calls == [("listen", "", 47312), ("browse",)]
    session.post_event(ev.TableSeen(TableAd("Bob", "192.168.1.30", 47312, 9, "expert", 1, 1, "Bob (pi)")))
    session.post_event(ev.TableSeen(dataclasses.replace(TableAd.lobby("Cy", 47312, 1), key="Cy (tv)")))
    assert session.state()["menu"]["items"] == ["Bob · match 9 · up to expert · 1 seat free", "Open a table",
                                                "Join by address", "Table server: not set"]
    from pyramid.net.discovery import instance_name

    session.post_event(ev.TableSeen(TableAd("Player", "192.168.1.2", 47312, 5, "good", 1, 1, instance_name("Player"))))
    assert len(session.state()["menu"]["items"]) == 4  # its own announcement, heard back, is not listed
    session.post_event(ev.TableGone("Bob (pi)"))
    assert session.state()["menu"]["items"] == ["Open a table", "Join by address", "Table server: not set"]
    assert press(session, "back")["screen"] == "pyramids_menu"
    assert networks.last.calls[-1] == ("stop",)


def test_opening_a_table_plays_at_once_and_the_host_can_invite(tmp_path: Path) -> None:
    networks = Networks()
    session = new_session(tmp_path, networks, deal_number=16)
    network_menu(session)
    session.post_event(ev.TableSeen(TableAd("Cy", "192.168.1.40", 47312, 0, "", 0, 1, "Cy (tv)")))
    state = choose(session, "Open a table")
    assert state["screen"] == "duel" and state["game"]["match"] == 16
    assert networks.last.calls[-1] == ("open_table", 16, "good", "", 47312)
    assert state["game"]["table"]["state"] == "waiting"
    assert session.view().table.detail == "Sequence 0"  # this player's own, as against the computer
    assert session.view().table.status_line == "no opponent yet"  # the opponent's progress below the table
    state = press(session, "back")
    assert state["screen"] == "table" and state["menu"]["items"] == ["Play", "Invite Cy", "Leave the table"]
    choose(session, "Invite Cy")
    assert networks.last.calls[-1] == ("invite", "192.168.1.40", 47312)
    session.post_event(ev.InviteSent("192.168.1.40", 47312, True, ""))
    assert session.view().menu.footer == "Invite sent to Cy"
    # Nobody sat and nothing was played: leaving counts nothing and goes back to the network menu.
    assert choose(session, "Leave the table")["screen"] == "network_menu"
    assert networks.last.calls[-1] == ("close_table",)
    assert not session.store.has_progress("pyramids") and session.store.all_stats() == []


def table_with_bob(tmp_path: Path) -> tuple[Networks, Session, Any]:
    """A table opened from the network menu on match 16, Bob's seat taken as the network thread would."""
    networks = Networks()
    session = new_session(tmp_path, networks, deal_number=16)
    network_menu(session)
    choose(session, "Open a table")
    link = networks.last.link
    assert link is not None
    link.opponent_name, link.token = "Bob", "1" * 32
    return networks, session, link


def replayed(link: MatchLink, move: Move) -> tuple[ev.NetEvent, ...]:
    """Bob's ``move`` taken by the link's match state as the network thread takes it (the link's
    snapshot published); the news the thread would post, for the test to post when it chooses."""
    state = link.state
    if not state.peer:
        state.connect("Bob", Limits(), 0.0)
    step = state.receive(move, 0.0)
    link.now = state.snapshot()
    return step.events


def post(session: Session, events: tuple[ev.NetEvent, ...]) -> None:
    for event in events:
        session.post_event(event)


def test_the_opponents_progress_and_connection_are_shown_on_the_table(tmp_path: Path) -> None:
    networks, session, link = table_with_bob(tmp_path)
    session.post_event(ev.OpponentJoined("Bob", False))
    assert session.view().table.status_line == "Bob sat at the table"
    session.post_event(ev.PeerConnection(False))
    assert session.view().table.status_line == "Bob's console is not answering"
    assert session.state()["game"]["opponent"]["connected"] is False
    session.post_event(ev.MatchVoided("illegal_move", "move 3 'Kd' is not legal"))
    assert session.view().table.status_line == "The match is void: a move sent by the other console is not legal"
    assert not session.store.has_progress("pyramids")


def test_join_by_address_is_entered_with_the_arrows_and_remembered(tmp_path: Path) -> None:
    networks = Networks()
    session = new_session(tmp_path, networks)
    network_menu(session)
    state = choose(session, "Join by address")
    assert state["screen"] == "join_address" and state["menu"]["items"] == ["192.168.1.2:47312"]
    assert session.view().menu.items == ("192.168.1.[2] port 47312",)  # the cursor on the last number
    state = press(session, "up up up left left left down " + "right " * 8 + "down down")
    assert state["menu"]["items"] == ["192.168.0.5:47310"]
    assert press(session, "ok")["screen"] == "joining"
    assert networks.last.calls[-1] == ("join", "192.168.0.5", 47310)
    assert session.store.settings().join_address == "192.168.0.5:47310"
    press(session, "ok")  # Cancel
    assert networks.last.calls[-1] == ("close_table",)
    assert choose(session, "Join by address")["menu"]["items"] == ["192.168.0.5:47310"]


def test_a_console_without_a_network_says_so(tmp_path: Path) -> None:
    session = new_session(tmp_path, None)
    state = network_menu(session)
    assert state["screen"] == "notice" and session.view().panel.title == "No network here"


def test_a_whole_match_against_a_replayed_opponent_counts_per_opponent_name(tmp_path: Path) -> None:
    networks, session, link = table_with_bob(tmp_path)
    session.post_event(ev.OpponentJoined("Bob", False))
    theirs = play_match(16, "casual")
    for number, move in enumerate(theirs.moves, start=1):
        post(session, replayed(link, Move(16, number, str(move))))
    screen = session.screen
    for move in play_match(16, "good").moves:
        screen.board.push(move)  # type: ignore[attr-defined]
        screen.moved(move, screen.board.round_number)  # type: ignore[attr-defined]
    state = press(session, "ok")
    assert state["screen"] == "duel_result"
    assert state["menu"]["items"] == ["Watch Bob's game", "New round", "Leave the table"]
    lines = session.view().panel.lines
    # Issue 47: "You 500 – -40 Bob" read as a dash then a minus; each total now stands by its name.
    assert lines[0] == f"You {sum(play_match(16, 'good').round_scores)} · Bob {sum(theirs.round_scores)}"
    stats = session.store.stats(NETWORK_GAME, "Bob")
    assert stats.played == 1
    assert not session.store.has_progress("pyramids")
    # Watching: the game so far, move by move.
    assert press(session, "ok")["screen"] == "watch"
    press(session, " ".join(["right"] * len(theirs.moves)))
    assert session.screen.step == len(theirs.moves)  # type: ignore[attr-defined]
    from pyramid.console.wording import describe_variant

    assert describe_variant(NETWORK_GAME, "Bob") == "Pyramids against Bob on the network"


def test_watching_goes_live_once_caught_up(tmp_path: Path) -> None:
    networks, session, link = table_with_bob(tmp_path)
    from pyramid.console.net.match import WatchScreen
    theirs = play_match(16, "casual").moves
    post(session, replayed(link, Move(16, 1, str(theirs[0]))))
    run = session.tables.run
    assert run is not None
    session.push(WatchScreen(session, run))
    assert session.screen.step == 0 and len(session.screen.moves) == 1  # type: ignore[attr-defined]
    press(session, "right")
    news = replayed(link, Move(16, 2, str(theirs[1])))
    drawn = session.view()
    assert session.screen.step == 1 and drawn == session.view()  # type: ignore[attr-defined]  # drawing changes nothing
    post(session, news)
    assert session.screen.step == 2  # type: ignore[attr-defined]
    assert run.opponent == link.opponent_game() and len(run.opponent.moves) == 2  # the one replay's copy
    assert session.view().table.status_line.startswith("Live: Bob is playing")


# -- the player's name ---------------------------------------------------------------------------
def type_name(session: Session, name: str) -> None:
    """The arrows a player presses to turn the name shown into ``name``: ▲ to each letter, ▶ to the next."""
    entry = session.screen
    letters, shown = entry.LETTERS, list(entry.letters)  # type: ignore[attr-defined]
    script = ["left"] * entry.position  # type: ignore[attr-defined]
    for have, want in zip(shown, name.ljust(entry.LENGTH)):  # type: ignore[attr-defined]
        script += ["up"] * ((letters.index(want) - letters.index(have)) % len(letters)) + ["right"]
    press(session, " ".join(script))


def test_your_name_is_set_once_in_the_settings_and_used_at_the_table(tmp_path: Path) -> None:
    networks = Networks()
    session = new_session(tmp_path, networks)
    choose(session, "Settings")
    state = choose(session, "Your name: Player")
    assert state["screen"] == "name_entry" and state["menu"]["items"] == ["Player"]
    type_name(session, "Ann")
    state = press(session, "ok")
    assert state["screen"] == "settings" and "Your name: Ann" in state["menu"]["items"], "the line shows the name"
    assert session.store.settings().player_name == "Ann"
    press(session, "back back")
    network_menu(session)
    assert networks.last.name == "Ann"


def test_a_bad_stored_name_falls_back_to_the_default() -> None:
    assert PlayerSettings.from_stored({"player_name": " Ann"}).player_name == "Player"
    assert PlayerSettings.from_stored({"player_name": "A\nB"}).player_name == "Player"
    assert PlayerSettings.from_stored({"player_name": "x" * 33}).player_name == "Player"
    assert PlayerSettings.from_stored({"player_name": "Zoë"}).player_name == "Zoë"
    assert PlayerSettings.from_stored({"join_address": "10.0.0.300:1"}).join_address == ""
    assert PlayerSettings.from_stored({"join_address": "10.0.0.3:47312"}).join_address == "10.0.0.3:47312"


# -- the [network] table of the settings file ------------------------------------------------------
@pytest.mark.parametrize("table, port, problems", [
    ({}, DEFAULT_PORT, 0),
    ({"network": {"port": 50000}}, 50000, 0),
    ({"network": {"port": 80}}, DEFAULT_PORT, 1),
    ({"network": {"port": 70000}}, DEFAULT_PORT, 1),
    ({"network": {"port": "47312"}}, DEFAULT_PORT, 1),
    ({"network": {"port": True}}, DEFAULT_PORT, 1),
    ({"network": {"port": 5.0e4}}, DEFAULT_PORT, 1),
    ({"network": {"port": 50000, "prot": 1}}, 50000, 1),
    ({"network": "47312"}, DEFAULT_PORT, 1),
    ({"network": {"port": "x" * 10_000}}, DEFAULT_PORT, 1),
])
def test_the_network_settings_never_crash_on_a_bad_value(table: dict, port: int, problems: int) -> None:
    settings = read_network_settings(table, "pyramid.toml")
    assert settings.port == port and len(settings.problems) == problems
    for problem in settings.problems:
        assert problem.startswith("pyramid.toml: ") and "\n" not in problem and len(problem) < 300
        assert "network" in problem
    if problems and table.get("network") != {"port": 50000, "prot": 1}:
        assert str(DEFAULT_PORT) in settings.problems[0]


def test_the_settings_file_port_reaches_the_console(tmp_path: Path) -> None:
    import subprocess
    import sys

    settings = tmp_path / "pyramid.toml"
    settings.write_text("[network]\nport = 99\n")
    result = subprocess.run([sys.executable, "-m", "pyramid", "--display", "headless", "--settings", str(settings),
                             "--script", "ok"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert result.stderr.strip().splitlines() == [
        f"pyramid: {settings}: [network] port = 99 is not a port from 1024 to 65535; using {DEFAULT_PORT}"]


def test_script_waits_are_only_words_of_the_script() -> None:
    from pyramid.errors import InvalidActionError
    from pyramid.scripting import parse_steps

    assert parse_steps("ok wait wait:joined wait:done wait:shared WAIT:friends:3") == [
        Action("ok"), ScriptWait("message", 10.0), ScriptWait("joined", 30.0), ScriptWait("done", 60.0),
        ScriptWait("shared", 30.0), ScriptWait("friends", 60.0, 3)]
    assert [str(step) for step in parse_steps("wait:shared wait:friends:0 wait:friends:2000")] == [
        "wait:shared", "wait:friends:0", "wait:friends:2000"]
    with pytest.raises(InvalidActionError):
        Action.parse("wait")
    for word in ("wait:forever", "wait:friends"):
        with pytest.raises(InvalidActionError, match="wait:shared, wait:friends:N"):
            parse_steps(word)
    for word in ("wait:friends:", "wait:friends:-1", "wait:friends:2001", "wait:friends:٣", "wait:friends:3x"):
        with pytest.raises(InvalidActionError, match=f"'{word}': wait:friends: takes a count of results"):
            parse_steps(word)


# -- events on the main loop's queue ---------------------------------------------------------------
def test_the_input_hub_hands_posted_items_out_in_order_with_the_actions() -> None:
    import threading

    from input.hub import InputHub

    hub = InputHub()
    hub.tap(1, 2, "touch")
    hub.post(INVITE)
    hub.tap(3, 4, "touch")
    assert hub.wait(0) == [Action.tap(1, 2), INVITE, Action.tap(3, 4)]
    threading.Timer(0.05, hub.post, (ev.PeerConnection(False),)).start()  # from the network thread
    assert hub.wait(10) == [ev.PeerConnection(False)]  # a blocked wait wakes for it


class Probe:
    def __init__(self) -> None:
        self.joined = False

    def heard(self, item: object) -> bool:
        return isinstance(item, ev.OpponentMoved)

    def reached(self, wait: ScriptWait) -> bool:
        return wait.goal == "joined" and self.joined


def test_the_script_source_hands_over_posts_and_its_waits_end_on_news_or_their_limit() -> None:
    import threading

    from pyramid.scripting import ScriptSource

    probe = Probe()
    moved = ev.OpponentMoved(1, "turn", 1, -5, False)
    source = ScriptSource([ScriptWait("message", 30.0), Action("ok"), ScriptWait("joined", 30.0),
                           ScriptWait("message", 0.05), Action("back")], probe=probe)
    threading.Timer(0.05, source.post, (ev.Listening("127.0.0.1", 1),)).start()
    assert source.wait(None) == [ev.Listening("127.0.0.1", 1)]  # not news from the other console: still waiting
    source.post(moved)
    assert source.wait(None) == [moved]
    assert source.wait(None) == [Action("ok")]  # the wait ended with the message
    probe.joined = True
    assert source.wait(None) == [Action("back")]  # joined at once; the last wait ran out (nothing came)
    assert source.wait(None) is None


def test_leaving_a_match_under_way_is_asked_first_and_counts_as_lost(tmp_path: Path) -> None:
    networks, session, link = table_with_bob(tmp_path)
    session.post_event(ev.OpponentJoined("Bob", False))
    screen = session.screen
    move = play_match(16, "good").moves[0]
    screen.board.push(move)  # type: ignore[attr-defined]
    screen.moved(move, 1)  # type: ignore[attr-defined]
    assert link.own_moves == [str(move)]  # sent with MatchLink.play after board.push
    assert session.store.load_progress("pyramids").context["table"]["own"] == [str(move)]
    state = press(session, "back back")
    assert state["screen"] == "confirm" and state["menu"]["items"] == ["No", "Leave"]
    assert press(session, "ok")["screen"] == "table"  # No
    state = press(session, "back down ok")
    assert state["screen"] == "network_menu"
    stats = session.store.stats(NETWORK_GAME, "Bob")
    assert (stats.played, stats.won) == (1, 0)
    assert not session.store.has_progress("pyramids")


def test_leaving_before_any_move_once_the_opponent_sat_down_counts_as_lost(tmp_path: Path) -> None:
    """Issue 47, item 13: a match left in round 1 before any move went uncounted, while the question
    said it counted as lost; the pyramid is face up, so leaving at once escaped a bad deal. Now it counts
    (a loss for the one who leaves), and a table left before anybody sat down counts for nobody."""
    networks, session, link = table_with_bob(tmp_path)
    session.post_event(ev.OpponentJoined("Bob", False))
    state = press(session, "back back")
    assert state["screen"] == "confirm", "asked first: it counts"
    press(session, "down ok")
    stats = session.store.stats(NETWORK_GAME, "Bob")
    assert (stats.played, stats.won) == (1, 0) and not session.store.has_progress("pyramids")


def test_the_player_whose_opponent_leaves_before_any_move_wins_the_match(tmp_path: Path) -> None:
    networks, session, link = table_with_bob(tmp_path)
    session.post_event(ev.OpponentJoined("Bob", False))
    session.post_event(ev.OpponentLeft("left"))
    stats = session.store.stats(NETWORK_GAME, "Bob")
    assert (stats.played, stats.won) == (1, 1)
    assert session.tables.run is not None and session.tables.run.won_by_leaving


def test_a_table_left_before_anybody_sat_down_counts_for_nobody(tmp_path: Path) -> None:
    networks, session, link = table_with_bob(tmp_path)
    link.opponent_name = None  # the table opened, nobody came
    press(session, "back back")
    assert session.state()["screen"] == "network_menu", "nothing to lose: not asked, left"
    assert session.store._connection.execute("SELECT count(*) FROM stats").fetchone() == (0,)
    assert not session.store.has_progress("pyramids")


@pytest.mark.parametrize("argv, message", [
    (["--table", "opened"], "invalid --table 'opened'"),
    (["--table", "join:127.0.0.1"], "invalid --table"),
    (["--table", "join:127.0.0.1:0"], "port 1..65535"),
    (["--table-port", "0"], "go with --table open"),
    (["--table", "join:h:1", "--table-address", "127.0.0.1"], "go with --table open"),
    (["--table", "open", "--table-port", "70000"], "invalid --table-port 70000"),
    (["--table", "open", "--game", "pyramid"], "cannot go with --game pyramid"),
    (["--name", " Ann"], "invalid --name"),
])
def test_table_options_are_refused_in_one_line(argv: list[str], message: str) -> None:
    from pyramid.options import OptionError, parse_options

    with pytest.raises(OptionError) as error:
        parse_options(argv)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_table_options_read() -> None:
    from pyramid.options import TableRequest, parse_options

    options, _ = parse_options(["--table", "open", "--table-port", "0", "--table-address", "127.0.0.1",
                                "--deal-number", "16", "--name", "Ann", "--script", "wait:joined ok wait:done"])
    assert options.table == TableRequest() and options.table.opens and options.game == "pyramids"
    assert (options.table_port, options.table_address, options.name, options.deal_number) == (0, "127.0.0.1", "Ann", 16)
    joined, _ = parse_options(["--table", "join:[fe80::1]:47312"])
    assert joined.table == TableRequest("fe80::1", 47312) and not joined.table.opens


# -- live lists keep the item, not the line (issue 26, item 2) -----------------------------
def table_ad(host: str, match: int = 9, key: str | None = None) -> TableAd:
    return TableAd(host, "192.168.1.30", 47312, match, "good", 1, 1, key or f"{host} (pi)")


def test_a_table_that_appears_never_takes_the_ok_meant_for_open_a_table(tmp_path: Path) -> None:
    networks = Networks()
    session = new_session(tmp_path, networks)
    assert network_menu(session)["menu"]["selected"] == 0  # "Open a table"
    session.post_event(ev.TableSeen(table_ad("Mallory")))
    state = session.state()
    assert state["menu"]["items"][state["menu"]["selected"]] == "Open a table"
    press(session, "ok")
    assert [call[0] for call in networks.last.calls][-1] == "open_table", "no stranger's table joined"


def test_the_highlight_follows_its_table_when_others_come_and_go(tmp_path: Path) -> None:
    networks = Networks()
    session = new_session(tmp_path, networks)
    network_menu(session)
    for host in ("Bob", "Dan"):
        session.post_event(ev.TableSeen(table_ad(host)))
    press(session, "up")  # from "Open a table" (kept while the tables came) to Dan's table above it
    for event in (ev.TableSeen(table_ad("Ann")), ev.TableSeen(table_ad("Cy")), ev.TableGone("Bob (pi)")):
        session.post_event(event)
        state = session.state()
        assert state["menu"]["items"][state["menu"]["selected"]].startswith("Dan ·")
    press(session, "ok")
    assert networks.last.calls[-1] == ("join", "192.168.1.30", 47312)


def test_tables_withdrawn_under_the_highlight_never_leave_it_past_the_end(tmp_path: Path) -> None:
    """Before: an IndexError (lobby.py) when the highlighted table and those below it went."""
    networks = Networks()
    session = new_session(tmp_path, networks)
    network_menu(session)
    hosts = ["Ann", "Bob", "Cy", "Dan"]
    for host in hosts:
        session.post_event(ev.TableSeen(table_ad(host)))
    press(session, "up")  # Dan's table, the last one
    for host in hosts:
        session.post_event(ev.TableGone(f"{host} (pi)"))
        state = session.state()
        assert 0 <= state["menu"]["selected"] < len(state["menu"]["items"])
    state = session.state()
    assert state["menu"]["items"][state["menu"]["selected"]] == "Open a table"  # the line in its place
    press(session, "ok")
    assert networks.last.calls[-1][0] == "open_table"


def test_a_console_to_invite_that_goes_away_never_crashes_the_table_screen(tmp_path: Path) -> None:
    """Before: an IndexError (lobby.py) on the host's table screen when an invitable console went."""
    networks = Networks()
    session = new_session(tmp_path, networks)
    network_menu(session)
    choose(session, "Open a table")
    assert press(session, "back")["screen"] == "table"
    for host in ("Ann", "Bob"):
        session.post_event(ev.TableSeen(dataclasses.replace(TableAd.lobby(host, 47312, 1), key=f"{host} (tv)",
                                                            address="192.168.1.40")))
    assert session.state()["menu"]["items"] == ["Play", "Invite Ann", "Invite Bob", "Leave the table"]
    press(session, "down down")  # on "Invite Bob"
    session.post_event(ev.TableGone("Bob (tv)"))
    state = session.state()  # the highlight never lands on "Leave the table" by itself (issue 47)
    assert state["menu"]["items"][state["menu"]["selected"]] == "Play"
    session.post_event(ev.TableGone("Ann (tv)"))
    state = session.state()
    assert state["menu"]["items"][state["menu"]["selected"]] == "Play"


# -- invites: one on screen, one a console per 30 s, "Not now" for 10 minutes (issue 26, item 5) --


def invite_from(address: str, name: str = "Mallory") -> ev.InviteReceived:
    return ev.InviteReceived(name, address, 47312, 77)


def test_an_invite_flood_from_many_addresses_shows_one_invite(tmp_path: Path) -> None:
    session = new_session(tmp_path, Networks())
    session.tables.clock = clock = FakeClock(1000.0)
    for number in range(1148):  # as many as the flood sent in 30 s
        session.post_event(invite_from(f"192.168.1.{number % 200 + 2}"))
        clock.now += 25 / 1148
    assert session.state()["screen"] == "invite"
    assert press(session, "back")["screen"] == "menu", "Back gets away: no next invite behind it"
    for number in range(200):
        session.post_event(invite_from(f"10.0.0.{number + 2}"))
    assert session.state()["screen"] == "menu"


def test_one_invite_a_console_per_30_seconds_and_not_now_silences_it_for_ten_minutes(tmp_path: Path) -> None:
    session = new_session(tmp_path, Networks())
    session.tables.clock = clock = FakeClock(1000.0)
    session.post_event(invite_from("192.168.1.20", "Ann"))
    assert press(session, "ok")["screen"] == "joining"  # Join
    press(session, "back")  # gives up joining
    clock.now += 20
    session.post_event(invite_from("192.168.1.20", "Ann"))
    assert session.state()["screen"] != "invite", "the same console again within 30 s"
    clock.now += 11
    session.post_event(invite_from("192.168.1.20", "Ann"))
    assert session.state()["screen"] == "invite"
    assert press(session, "down ok")["screen"] != "invite"  # Not now
    clock.now += 9 * 60
    session.post_event(invite_from("192.168.1.20", "Ann"))
    assert session.state()["screen"] != "invite", "silenced for 10 minutes"
    session.post_event(invite_from("192.168.1.21", "Bob"))
    assert session.state()["screen"] == "invite", "another console may invite"
    press(session, "back")
    clock.now += 61
    session.post_event(invite_from("192.168.1.20", "Ann"))
    assert session.state()["screen"] == "invite"


def test_the_table_screen_says_when_the_host_turns_connections_away(tmp_path: Path) -> None:
    session = new_session(tmp_path, Networks())
    network_menu(session)
    choose(session, "Open a table")
    press(session, "back")
    assert session.view().menu.footer == "Address 192.168.1.10 · port 47312"
    session.post_event(ev.Crowded(True))
    assert session.view().menu.footer == "Many connections at once: some are turned away"
    session.post_event(ev.Crowded(False))
    assert session.view().menu.footer == "Address 192.168.1.10 · port 47312"


# -- issue 29: nothing lost by a menu ------------------------------------------------------------
def duel_with_one_move(session: Session) -> None:
    """A duel against the computer, one move played, then left for the menus (saved, as Esc does)."""
    from pyramid.console.duel import menus as duel_menus
    from pyramid.engine.duel.ai import opponent_for

    duel_menus.play_computer(session, 7)
    screen = session.screen
    move = opponent_for("good", 3).choose(screen.board)  # type: ignore[attr-defined]
    target = ("stock" if move.kind == "turn" else "joker" if move.kind == "joker"
              else screen.board.index_of(move.card))  # type: ignore[attr-defined]
    session.handle(Action.tap(1, 1), lambda x, y: target)
    assert len(screen.board.move_stack) == 1  # type: ignore[attr-defined]
    press(session, "star")
    assert session.store.has_progress("pyramids")


@pytest.mark.parametrize("way", ["open", "address", "invite"])
def test_a_duel_in_progress_is_never_lost_by_the_network_menus_without_a_question(tmp_path: Path, way: str) -> None:
    """Esc → Pyramids → Play on the network → Open a table (or join one) used to replace the duel and count it
    lost at once; now it asks, as "Two players" does, and No keeps the duel as it was."""
    session = new_session(tmp_path, Networks())
    duel_with_one_move(session)
    before = session.store.load_progress("pyramids")
    if way == "invite":
        session.post_event(INVITE)
        state = press(session, "ok")  # Join
    else:
        network_menu(session)
        state = choose(session, "Open a table") if way == "open" else (choose(session, "Join by address"),
                                                                         press(session, "ok"))[1]
    assert state["screen"] == "confirm" and state["menu"]["items"] == ["No", "New duel"]
    assert session.view().panel.title == "Start a new duel?"
    press(session, "ok")  # No
    assert session.store.load_progress("pyramids") == before
    assert session.store.stats("pyramids", "good").played == 0
    assert session.tables.run is None and session.tables.joining is None


def test_the_hosts_table_says_its_address_home_network_first(tmp_path: Path) -> None:
    """Issue 29 item 3: the host screen showed only "Ann's table · match N"; the guest had to find the address."""
    session = new_session(tmp_path, Networks())
    session.tables.own_addresses = lambda: ["93.184.216.34", "fd00::2", "192.168.1.20"]  # type: ignore[method-assign]
    network_menu(session)
    choose(session, "Open a table")
    session.post_event(ev.Listening("", 47999))  # port 0 was asked, or another console took 47312
    press(session, "back")
    assert session.view().menu.footer == "Address 192.168.1.20, 93.184.216.34 · port 47999"
    session.post_event(ev.OpponentJoined("Bob", False))
    assert session.view().menu.footer == "Bob sat at the table"  # someone sits: the address is no longer needed


def test_a_table_listening_on_one_address_says_that_one(tmp_path: Path) -> None:
    networks = Networks()
    store = Store.open(tmp_path / "pyramid.db")
    tables = Tables(networks, 47312, "127.0.0.1")  # type: ignore[arg-type]
    session = Session(None, DealChoice(number=16), store=store, tables=tables)
    open_console(session)
    network_menu(session)
    choose(session, "Open a table")
    press(session, "back")
    assert session.view().menu.footer == "Address 127.0.0.1 · port 47312"


def test_an_address_is_set_digit_by_digit_or_typed(tmp_path: Path) -> None:
    """Issue 29 item 4: from the default 192.168.1.2 to 127.0.0.1:47312 took about 235 presses (each
    number stepped by one, the port too, digits not typed on this screen)."""
    session = new_session(tmp_path, Networks())
    network_menu(session)
    choose(session, "Join by address")
    script = "down " + "right " * 7 + "up up up right up up up up up right down right up up up up right up up " \
             + "right right right down"
    assert len(script.split()) <= 40
    assert press(session, script)["menu"]["items"] == ["127.0.0.1:47312"]
    press(session, "back")
    choose(session, "Join by address")
    assert press(session, "type:2 type:0")["menu"]["items"] == ["192.168.1.20:47312"]  # typed: the last number
    assert press(session, "right type:4 type:7 type:3 type:1 type:0")["menu"]["items"] == ["192.168.1.20:47310"]
    assert press(session, "erase")["menu"]["items"] == ["192.168.1.20:4731"]
    assert session.view().menu.footer == "▲ ▼ change, ◀ ▶ move, ✓ join"
    press(session, "left " * 5 + "type:2 type:5 type:6")  # 256 is no address number: the 6 goes on to the port
    assert session.state()["menu"]["items"] == ["192.168.1.25:6"]
    press(session, "left " * 7 + "down")  # the hundreds of the last number, 0 down to 9: 925, not an address
    assert session.view().menu.footer == "Each number up to 255, the port 1 to 65535"
    assert press(session, "ok")["screen"] == "join_address"  # ✓ waits for a valid address


def test_after_a_power_cut_a_live_network_match_comes_before_a_solitaire_game(tmp_path: Path) -> None:
    """Issue 29 item 7: with a solitaire game and a network match both saved, the menu offered Continue
    (solitaire) first, highlighted, while the opponent waited."""
    from pyramid.console.game_screen import start_pyramid

    networks = Networks()
    session = new_session(tmp_path, networks, deal_number=16)
    network_menu(session)
    choose(session, "Open a table")  # a match at this console's table, saved
    start_pyramid(session, Redeals(0).allowance)  # and a solitaire game, saved
    session.store.close()
    again = new_session(tmp_path, Networks())  # the power comes back
    state = again.state()
    assert state["menu"]["items"][:2] == ["Continue Pyramids", "Continue"] and state["menu"]["selected"] == 0
    assert again.store.load_progress("pyramids") is not None and "table" in again.store.load_progress("pyramids").context


def test_news_of_a_moment_goes_at_the_next_move_and_the_progress_is_the_opponents(tmp_path: Path) -> None:
    """Issue 29 item 11: "Ann: round 1, 155 · sequence 9" read as Ann's sequence; "Bob sat at the table"
    stayed, even on the results panel; a guest back at its seat read "Ann is back" about itself."""
    networks, session, link = table_with_bob(tmp_path)
    session.post_event(ev.OpponentJoined("Bob", False))
    view = session.view()
    assert view.table.status_line == "Bob sat at the table" and view.table.detail == "Sequence 0"
    theirs = play_match(16, "casual").moves
    post(session, replayed(link, Move(16, 1, str(theirs[0]))))
    screen = session.screen
    move = play_match(16, "good").moves[0]
    screen.board.push(move)  # type: ignore[attr-defined]
    screen.moved(move, screen.board.round_number)  # type: ignore[attr-defined]
    assert session.view().table.status_line.startswith("Bob: round 1, ")  # the news was seen: Bob's progress
    session.post_event(ev.PeerConnection(False))
    screen.board.push(play_match(16, "good").moves[1])  # type: ignore[attr-defined]
    screen.moved(play_match(16, "good").moves[1], 1)  # type: ignore[attr-defined]
    assert session.view().table.status_line == "Bob's console is not answering"  # news that holds stays
    run = session.tables.run
    assert run is not None
    run.on_seated(ev.Seated("Ann", 16, "good", True))
    assert run.status == "Back at Ann's table"


def test_a_letter_typed_first_replaces_the_default_name(tmp_path: Path) -> None:
    """Issue 47, item 13: typing "Ann" over "Player" made "PlayerAnn"; the key line says how to erase."""
    session = new_session(tmp_path, Networks())
    choose(session, "Settings")
    choose(session, "Your name: Player")
    for letter in "Ann":
        session.handle(Action("type", text=letter))
    assert session.state()["menu"]["items"] == ["Ann"]
    assert "Backspace" in session.view().menu.footer  # type: ignore[union-attr]
    session.handle(Action("type", text="e"))
    assert session.state()["menu"]["items"] == ["Anne"], "only the first letter replaces"


def test_the_tv_safe_area_line_says_what_it_does(tmp_path: Path) -> None:
    session = new_session(tmp_path, Networks())
    state = choose(session, "Settings")
    session.screen.selected = next(i for i, item in enumerate(state["menu"]["items"])  # type: ignore[attr-defined]
                                   if item.startswith("TV safe area"))
    assert session.view().menu.footer == "Room left for a TV that crops the edges"  # type: ignore[union-attr]


def test_after_an_invite_is_taken_the_highlight_is_on_the_game_and_each_console_line_is_told_apart(
        tmp_path: Path) -> None:
    """Issue 47, item 9: once the invited console sat down, the highlight landed on "Leave the table"
    (✓ then asked to leave); "Invite Bob" showed twice, at home and on the server, alike."""
    networks = Networks()
    session = new_session(tmp_path, networks, deal_number=16)
    network_menu(session)
    session.post_event(ev.TableSeen(TableAd("Bob", "192.168.1.40", 47312, 0, "", 0, 1, "Bob (tv)")))
    session.post_event(ev.TableSeen(TableAd("Bob", "bob", 0, 0, "", 0, 1, "server:bob", "server")))
    choose(session, "Open a table")
    state = press(session, "back")
    assert state["menu"]["items"] == ["Play", "Invite Bob", "Invite Bob (server)", "Leave the table"]
    choose(session, "Invite Bob")
    link = networks.last.link
    assert link is not None
    link.opponent_name, link.token = "Bob", "1" * 32  # Bob's console took the seat
    session.post_event(ev.OpponentJoined("Bob", False))
    state = session.state()
    assert state["menu"]["items"] == ["Play", "Leave the table"]
    assert state["menu"]["items"][state["menu"]["selected"]] == "Play"


def test_a_host_whose_guest_left_opens_the_table_again_to_a_new_player(tmp_path: Path) -> None:
    """Issue 47, item 9: when the guest left, the host's table stayed "full", with no way to take a new
    guest but to leave and open another match."""
    networks, session, link = table_with_bob(tmp_path)
    session.post_event(ev.OpponentJoined("Bob", False))
    session.post_event(ev.OpponentLeft("left"))
    session.handle(Action("back"))  # from the results panel's game to the table's screen
    while session.state()["screen"] != "table":
        session.handle(Action("back"))
    state = session.state()
    assert "Open the table to a new player" in state["menu"]["items"]
    before = len(networks.last.calls)
    state = choose(session, "Open the table to a new player")
    opened = [call for call in networks.last.calls[before:] if call[0] == "open_table"]
    assert len(opened) == 1 and state["screen"] == "duel"
    assert state["game"]["table"]["state"] == "waiting" and state["game"]["moves"] == []
    assert session.tables.run is not None and session.tables.run.link.opponent_name is None
    stats = session.store.stats("pyramids-net", "Bob")
    assert (stats.played, stats.won) == (1, 1), "Bob sat down and left: the match is the host's (issue 47)"


def test_the_opponents_news_is_read_from_the_event_not_the_network(tmp_path: Path) -> None:
    """Issue 48: an opponent's move reached the screen by the main thread taking the network's lock to
    copy the game; the event's own snapshot is read now (a link that refuses to be asked proves it)."""
    from pyramid.net.views import OpponentGame

    networks, session, link = table_with_bob(tmp_path)
    session.post_event(ev.OpponentJoined("Bob", False))
    run = session.tables.run
    assert run is not None
    game = OpponentGame(run.match_number, ("d",), 1, 0, False, (0,), 0)

    def refused() -> OpponentGame:
        raise AssertionError("the main thread asked the link")

    link.opponent_game = refused
    session.post_event(ev.OpponentMoved(1, "d", 1, 0, False, game))
    assert run.opponent == game
    older = OpponentGame(run.match_number, (), 1, 0, False, (0,), 0)
    session.post_event(ev.OpponentStatus(1, 0, 0, False, older))
    assert run.opponent == game, "a snapshot from before never takes the game back"

