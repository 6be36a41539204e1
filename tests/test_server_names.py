"""A table on the server is named by the account that publishes it (issue 45, part 2).

Before, ``--table join:server:ann`` (and the menu) took a table whose advert's player name was
"ann" as readily as account ann's own: Mallory published a retained advert under her account
saying ``"host": "ann"``, with no expiry, and Bob's console went to her table whenever her advert
came first. Now a name that can be an account is that account; a player's name joins the one table
that claims it, never one of two; and an advert that would outlive its console is ignored.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pyramid.console.net.tables import Tables
from pyramid.console.net import wording
from pyramid.net import events as ev
from pyramid.net.advert import TableAd
from pyramid.net.server.session import ADVERT_EXPIRY
from pyramid.net.views import TableAt
from table_server import Broker, Mallory, make_server, running
from test_net_console_flow import RecordingNetwork
from test_net_match import Endpoint

CONNECTED = ev.ServerState("mqtts://tables.example.org:8883", "connected", "")


def server_table(player: str, account: str) -> ev.TableSeen:
    return ev.TableSeen(TableAd(player, account, 0, 16, "good", 1, 2, f"server:{account}", "server"))


class ServerNetwork(RecordingNetwork):
    """Records where it was asked to sit, tables on the server included."""

    def sit(self, where: TableAt, resume: Any = None, level: str = "casual") -> None:
        self.calls.append(("sit", where))


def tables_joining(name: str) -> tuple[Tables, list[ServerNetwork]]:
    made: list[ServerNetwork] = []

    def network(player: str) -> ServerNetwork:
        made.append(ServerNetwork(player))
        return made[-1]

    tables = Tables(network, 47312, name="Bob")  # type: ignore[arg-type]
    tables.join_named(name, "casual")
    return tables, made


def tell(tables: Tables, event: ev.TableSeen | ev.ServerState) -> None:
    """The news as the console's router (lobby.take_event) hands it to the tables."""
    if isinstance(event, ev.TableSeen):
        tables.on_table_seen(event)
    else:
        tables.on_server_state(event)


def sat_at(made: list[ServerNetwork]) -> list[str]:
    return [call[1].host for network in made for call in network.calls if call[0] == "sit"]


ANNS_TABLE = server_table("Ann", "ann")
CLAIMS = [server_table("ann", "mallory"), server_table("Ann", "mallory2")]


@pytest.mark.parametrize("order", list(itertools.permutations([ANNS_TABLE, *CLAIMS, CONNECTED])),
                         ids=lambda order: "-".join(getattr(event, "table", event).address if hasattr(event, "table")
                                                    else "connected" for event in order))
def test_join_by_account_sits_at_that_accounts_table_in_every_order_of_arrival(order: tuple[Any, ...]) -> None:
    tables, made = tables_joining("ann")
    for event in order:
        tell(tables, event)
    assert sat_at(made) == ["ann"]


@pytest.mark.parametrize("order", list(itertools.permutations([ANNS_TABLE, CLAIMS[1]])))
def test_a_players_name_claimed_by_two_tables_joins_neither_and_both_show_their_account(order: tuple[Any, ...]) -> None:
    """Both adverts are on the server when Bob connects (retained: read before "connected")."""
    tables, made = tables_joining("Ann")
    for event in (*order, CONNECTED):
        tell(tables, event)
    assert sat_at(made) == [], "two tables say Ann: neither is taken for Ann"
    lines = sorted(wording.table_line(ad.host, ad.match, ad.level, ad.seats, ad.via, ad.address)
                   for ad in tables.tables.values())
    assert lines == ["Ann (ann, server) · match 16 · up to good · 1 seat free",
                     "Ann (mallory2, server) · match 16 · up to good · 1 seat free"]


def test_a_players_name_claimed_by_one_table_joins_it_once_the_servers_tables_are_read() -> None:
    tables, made = tables_joining("Ann")
    tell(tables, ANNS_TABLE)
    assert sat_at(made) == [], "the server's other adverts are not all read yet"
    tell(tables, CONNECTED)
    assert sat_at(made) == ["ann"]


# -- adverts on a real server ------------------------------------------------------------------------
@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    yield from running(make_server(tmp_path / "server", "ann", "bob", "mallory")[0])


def advert(host: str) -> bytes:
    return json.dumps({"host": host, "match": "16", "level": "good", "seats": "1", "v": "2"}).encode()


# A minute, not a second, too long: the broker hands a retained message on with the time it has left,
# and an advert a second too long is, a second later on a loaded machine, exactly a console's (CI saw it).
@pytest.mark.parametrize("expiry", [None, ADVERT_EXPIRY + 60, 10**9], ids=["no expiry", "a minute too long", "far"])
def test_an_advert_that_would_outlive_its_console_is_ignored_and_said_once(
        broker: Broker, expiry: int | None, caplog: pytest.LogCaptureFixture) -> None:
    """Mallory's retained advert (player name "ann") without a console's expiry is not listed; the same
    advert with one is, under Mallory's account."""
    import logging

    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.properties import Properties

    mallory = Mallory(broker.server)
    bob = Endpoint("Bob", server=broker.server.account("bob"))
    try:
        properties = Properties(PacketTypes.PUBLISH)
        if expiry is not None:
            properties.MessageExpiryInterval = expiry
        for _ in range(3):
            mallory.client.publish("pyramids/v1/adverts/mallory", advert("ann"), qos=1, retain=True,
                                   properties=properties).wait_for_publish(10)
        with caplog.at_level(logging.INFO, logger="pyramid.net"):
            bob.net.browse()
            bob.wait(ev.ServerState, lambda event: event.state == "connected")
            mallory.send("pyramids/v1/adverts/mallory", b"")  # withdrawn: gone from every list
            mallory.client.publish("pyramids/v1/adverts/mallory", advert("ann"), qos=1, retain=True,
                                   properties=properties).wait_for_publish(10)
            valid = Properties(PacketTypes.PUBLISH)
            valid.MessageExpiryInterval = ADVERT_EXPIRY
            mallory.client.publish("pyramids/v1/adverts/mallory", advert("ann"), qos=1, retain=True,
                                   properties=valid).wait_for_publish(10)
            seen = bob.wait(ev.TableSeen)
        assert (seen.table.host, seen.table.address, seen.table.key) == ("ann", "mallory", "server:mallory")
        assert not [event for event in bob.seen[:-1] if isinstance(event, ev.TableSeen)], "the others were not listed"
        said = [record for record in caplog.records if "ignored the advert of mallory" in record.getMessage()]
        assert len(said) == 1, "said once"
    finally:
        mallory.stop()
        bob.net.stop()


def test_an_invite_proves_its_sender_is_on_the_server_whatever_its_old_status_said() -> None:
    """Seen on both cores (issue 48's parallel suite): Bob subscribed after Ann's earlier connection's
    last will "gone" had replaced her "here", so he took her as gone; her invite came, and its join was
    refused at once "ann is not on the table server", her new advert arriving a moment later. An invite
    under Ann's own topic (the ACL binds it) says she is here."""
    import asyncio

    from pyramid.net.context import NetContext
    from pyramid.net.protocol import Invite, encode
    from pyramid.net.server.account import ServerAccount
    from pyramid.net.server.session import Presence, TableServerSession

    posted: list[object] = []
    account = ServerAccount("127.0.0.1", 8883, "bob", Path("/nonexistent/password"), None)

    async def join_after_invite() -> object:
        session = TableServerSession(NetContext("Bob", posted.append), account)
        session._task = asyncio.get_running_loop().create_future()  # no connection: the seam below
        session._connected.set()
        session._open = lambda host, conversation, topic: (host, topic)  # type: ignore[method-assign,assignment,return-value]
        session._remember("ann", Presence(False, "an-earlier-connection"))
        with pytest.raises(ConnectionRefusedError):
            await session.conversation_with("ann")  # gone, as far as Bob knows: as a console that is off
        session._on_invite("ann", encode(Invite("Ann", 47312, 12)))
        return await session.conversation_with("ann")

    assert asyncio.run(join_after_invite())[0] == "ann"
    assert [type(event).__name__ for event in posted] == ["InviteReceived"]


@pytest.mark.parametrize(("expiry", "listed"), [(ADVERT_EXPIRY, True), (1, True), (ADVERT_EXPIRY + 1, False), (0, False),
                                                (None, False), ("600", False), (True, False)])
def test_the_expiry_an_advert_has_left_is_a_consoles_up_to_its_own(expiry: object, listed: bool) -> None:
    """The boundary, which a live broker cannot hold still (it counts the seconds down): the time an
    advert has left, as the broker hands it on, is 1 to ADVERT_EXPIRY seconds for a console's."""
    from pyramid.net.context import NetContext
    from pyramid.net.server.account import ServerAccount
    from pyramid.net.server.session import TableServerSession

    posted: list[object] = []
    session = TableServerSession(NetContext("Bob", posted.append),
                                 ServerAccount("127.0.0.1", 8883, "bob", Path("/nonexistent/password"), None))
    session.browsing = True
    session._on_advert("mallory", advert("ann"), expiry)
    assert [event.table.key for event in posted if isinstance(event, ev.TableSeen)] == (["server:mallory"] if listed else [])
