"""Every saved network state is checked when read (issue 45, part 4).

A saved table lives in the data directory, which a damaged card or a hand edit can change. Before,
a guest's table saved with port 10**30, -1 or 70000, or a host's with listening port 99999999, was
taken as it was: the network task then ended on ``OverflowError`` with no event, and Continue waited
for ever. Now each field is held to what the console could have written (the table is set aside,
in one line to the player and one in the log, nothing else lost), and any failure of a network task
its own code did not foresee still posts the event its screen waits for.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramid.engine.deal import MAX_DEAL_NUMBER
from pyramid.engine.duel.ai import play_match
from pyramid.net import events as ev
from pyramid.net.errors import ProtocolError
from pyramid.net.link import MatchLink
from pyramid.net.saved import MAX_HOST, listen_address
from test_net_console_flow import Networks, new_session, press, table_with_bob
from test_net_match import Endpoint

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=300),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=6)


def saved_links() -> dict[str, dict[str, Any]]:
    """A host's table, a seat at a home table and a seat through the table server, as saved."""
    host = MatchLink("host", 16, "good")
    lan = MatchLink("guest", 16, "casual", token="1" * 32, opponent_name="Ann", address=("192.168.1.20", 47312))
    server = MatchLink("guest", 16, "casual", token="2" * 32, opponent_name="Ann", address=("ann", 0), via="server")
    return {"host": host.to_json(), "lan guest": lan.to_json(), "server guest": server.to_json()}


@pytest.mark.parametrize("kind", ["host", "lan guest", "server guest"])
def test_what_the_console_saves_it_reads_back(kind: str) -> None:
    saved = saved_links()[kind]
    assert MatchLink.from_json(json.loads(json.dumps(saved))).to_json() == saved


@pytest.mark.parametrize("kind", ["host", "lan guest", "server guest"])
@pytest.mark.parametrize("field", ["role", "match", "level", "token", "opponent_name", "address", "via", "own"])
@settings(max_examples=50, deadline=None)
@given(value=JSON)
def test_any_value_in_any_field_is_read_or_refused_in_one_line(kind: str, field: str, value: Any) -> None:
    saved = {**saved_links()[kind], field: value}
    try:
        link = MatchLink.from_json(saved)
    except ProtocolError as error:
        assert "\n" not in str(error)
        return
    assert 1 <= link.match_number <= MAX_DEAL_NUMBER
    if link.address is not None:
        host, port = link.address
        assert 0 < len(host) <= MAX_HOST and (0 <= port <= 65535)
        assert (port == 0) == (link.via == "server")


@pytest.mark.parametrize("kind, address", [
    ("lan guest", ["192.168.1.20", 10**30]), ("lan guest", ["192.168.1.20", -1]), ("lan guest", ["192.168.1.20", 70000]),
    ("lan guest", ["192.168.1.20", 0]), ("lan guest", ["192.168.1.20", "47312"]), ("lan guest", ["", 47312]),
    ("lan guest", ["x" * 254, 47312]), ("lan guest", ["bad host", 47312]), ("lan guest", ["192.168.1.20"]),
    ("server guest", ["ann", 47312]), ("server guest", ["Ann/+", 0]), ("server guest", ["ann\x00", 0]),
])
def test_a_table_address_out_of_its_bounds_is_refused(kind: str, address: list[Any]) -> None:
    with pytest.raises(ProtocolError, match="saved table"):
        MatchLink.from_json({**saved_links()[kind], "address": address})


@pytest.mark.parametrize("match", [0, -1, MAX_DEAL_NUMBER + 1, 10**30, "16", 16.0, True])
def test_a_match_number_out_of_its_bounds_is_refused(match: object) -> None:
    with pytest.raises(ProtocolError, match="match number"):
        MatchLink.from_json({**saved_links()["host"], "match": match})


@pytest.mark.parametrize("listen", [["", 99999999], ["", -1], ["", 10**30], ["127.0.0.1", "47312"], ["x" * 254, 0],
                                    ["a b", 1], [1, 2], "127.0.0.1:47312", ["", 1, 2]])
def test_a_listening_address_out_of_its_bounds_is_refused(listen: object) -> None:
    with pytest.raises(ProtocolError, match="saved listening"):
        listen_address(listen)


def test_a_listening_address_as_saved_is_read() -> None:
    assert listen_address(None) is None
    assert listen_address(["", 47312]) == ("", 47312) and listen_address(["127.0.0.1", 0]) == ("127.0.0.1", 0)


@pytest.mark.parametrize("damage", [("listen", ["", 99999999]), ("listen", ["", -1]), ("match", 10**30),
                                   ("address", ["192.168.1.20", 70000]), ("role", "guest"), ("opponent", [])],
                         ids=lambda damage: f"{damage[0]}={damage[1]!r}"[:40])
def test_continue_on_a_damaged_saved_table_sets_it_aside_in_one_line_and_loses_nothing_else(
        tmp_path: Path, damage: tuple[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    networks, session, link = table_with_bob(tmp_path)
    session.post_event(ev.OpponentJoined("Bob", False))
    move = play_match(16, "good").moves[0]
    session.screen.board.push(move)  # type: ignore[attr-defined]
    session.screen.moved(move, 1)  # type: ignore[attr-defined]
    assert session.store.set_setting("player_name", "Ann")
    progress = session.store.load_progress("pyramids")
    field, value = damage
    context = dict(progress.context)
    if field == "listen":
        context["listen"] = value
    else:
        context["table"] = {**context["table"], field: value}
    session.store.save_progress(dataclasses.replace(progress, context=context))
    session.store.close()
    again = new_session(tmp_path, networks := Networks())  # the power comes back
    assert again.state()["menu"]["items"][0] == "Continue Pyramids"
    state = press(again, "ok")
    assert state["screen"] == "notice" and again.view().panel.title == "The saved table cannot be resumed", state
    assert [record for record in caplog.records if "saved table is set aside" in record.getMessage()]
    assert all(call[0] not in ("listen", "open_table", "join") for made in networks.made for call in made.calls)
    assert not again.store.has_progress("pyramids")
    assert again.store.settings().player_name == "Ann", "nothing else lost"
    assert press(again, "back")["screen"] == "menu"  # the main menu, Continue gone


@pytest.mark.parametrize("kind", ["listen", "join"])
def test_a_network_task_that_fails_unforeseen_still_posts_its_event(kind: str) -> None:
    """A port past what a socket takes (as a damaged saved table held) ends the task in OverflowError:
    the listen or the join still fails in an event the screen answers."""
    endpoint = Endpoint("Ann")
    try:
        if kind == "listen":
            endpoint.net.listen("127.0.0.1", 10**30)
            failed = endpoint.wait(ev.ListenFailed)
            assert failed.port == 10**30 and "OverflowError" in failed.detail
        else:
            endpoint.net.join("127.0.0.1", 70000)
            failed = endpoint.wait(ev.JoinFailed)
            assert failed.reason == "unreachable" and "OverflowError" in failed.detail
    finally:
        endpoint.net.stop()
