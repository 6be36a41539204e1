"""Identity on the table server is the account, and only the account (issue 45, part 1).

MQTT gives a client identifier to its newest connection and drops the one before. The console used
to connect as ``pyramid-<account>``: any account could connect with that identifier and knock the
console off, again and again (Ann's console dropped at each of Mallory's 10 connections). Now the
shipped server binds the identifier to the account (``use_username_as_clientid``), and the console's
own identifier is derived from its secret, so a broker without that setting ("a standard broker"
below) is safe too. A real Mosquitto made by make-server.sh (tests/table_server.py).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pyramid.engine.duel.ai import play_match
from pyramid.net import events as ev
from pyramid.net.limits import Limits
from pyramid.net.server.account import ClientCertificate, ServerAccount, ServerSettingsError, client_identifier
from table_server import Broker, Server, make_server
from test_net_match import Endpoint
from test_net_reconnect import numbers
from test_net_server import half_played, play_out, seat

CONFIGURATION = Path("etc") / "mosquitto" / "conf.d" / "pyramids.conf"


def guesses(*accounts: str) -> list[str]:
    """Every identifier an account holder could try for another console: its account and the old
    ``pyramid-`` one, in each case, and this console's own scheme with a wrong secret."""
    tried = []
    for account in accounts:
        for word in (account, f"pyramid-{account}", f"pyramid{account}"):
            tried += [word, word.upper(), word.capitalize(), word.title()]
    return list(dict.fromkeys(tried))


def paho_client(server: Server, user: str, password: str, identifier: str) -> Any:
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=identifier, protocol=mqtt.MQTTv5)
    client.tls_set(ca_certs=str(server.directory / "ca.crt"))
    client.username_pw_set(user, password)
    return client


class Intruder:
    """An account holder connecting again and again, as ``user``, with each identifier of ``tried`` in
    turn, until stopped (each connection waits for the server's answer, then leaves at once)."""

    def __init__(self, server: Server, user: str, tried: list[str]) -> None:
        self.server, self.user, self.tried = server, user, tried
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> Intruder:
        self._thread.start()
        return self

    def _run(self) -> None:
        password = self.server.password(self.user)
        while not self._stop.is_set():
            for identifier in self.tried:
                client = paho_client(self.server, self.user, password, identifier)
                connected = threading.Event()
                client.on_connect = lambda *args: connected.set()
                client.connect("127.0.0.1", self.server.port)
                client.loop_start()
                if connected.wait(10):
                    self.connections += 1
                client.disconnect()
                client.loop_stop()
                if self._stop.is_set():
                    return

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)


class Holder:
    """A connection that keeps ``identifier``, reconnecting when dropped; counts its drops."""

    def __init__(self, server: Server, user: str, identifier: str) -> None:
        self.drops = 0
        self.connected = threading.Event()
        client = self.client = paho_client(server, user, server.password(user), identifier)
        client.on_connect = lambda *args: self.connected.set()
        client.on_disconnect = self._dropped
        client.reconnect_delay_set(min_delay=1, max_delay=1)
        client.connect("127.0.0.1", server.port)
        client.loop_start()
        assert self.connected.wait(10), "the holder did not connect"

    def _dropped(self, *args: Any) -> None:
        self.drops += 1

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def start_broker(root: Path, standard: bool) -> Broker:
    server, _ = make_server(root, "ann", "bob", "cy", "mallory")
    if standard:  # any other MQTT broker: identifiers are the clients' own
        configuration = server.directory.parents[2] / CONFIGURATION
        lines = configuration.read_text().splitlines(keepends=True)
        kept = [line for line in lines if not line.startswith("use_username_as_clientid")]
        assert len(kept) == len(lines) - 2, "the shipped configuration binds identifiers to accounts on both ports"
        configuration.write_text("".join(kept))
    broker = Broker(server)
    broker.start()
    return broker


@pytest.fixture(params=["shipped server", "standard broker"])
def broker(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Broker]:
    broker = start_broker(tmp_path / "server", request.param == "standard broker")
    try:
        yield broker
    finally:
        broker.stop()


def server_states(endpoint: Endpoint) -> list[str]:
    endpoint.drain()
    return [event.state for event in endpoint.seen if isinstance(event, ev.ServerState)]


def test_no_account_knocks_a_console_off_by_its_identifier(broker: Broker, request: pytest.FixtureRequest) -> None:
    """Mallory connects again and again with every identifier she could guess for Ann's and Bob's
    consoles while they play a whole match: no drop, each move once, scores agreeing. A connection
    that does keep a guessable identifier (Cy's, the old way: ``pyramid-cy``) is knocked off by the
    same attack on a standard broker: the attack is real."""
    standard = "standard" in request.node.callspec.id
    host = Endpoint("Ann", server=broker.server.account("ann"))
    guest = Endpoint("Bob", server=broker.server.account("bob"))
    old_way = Holder(broker.server, "cy", "pyramid-cy")
    intruder = Intruder(broker.server, "mallory", guesses("ann", "bob", "cy"))
    try:
        host_link, guest_link = seat(host, guest, 7)
        intruder.start()
        host_game, guest_game = play_match(7, "good").moves, play_match(7, "casual").moves
        for number, move in enumerate(host_game):
            host_link.play(move)
            if number % 8 == 0:
                time.sleep(0.2)  # the match lasts while the intruder goes round its guesses
        for move in guest_game:
            guest_link.play(move)
        guest.wait(ev.OpponentMoved, lambda event: event.number == len(host_game))
        on_host = host.wait(ev.OpponentMoved, lambda event: event.number == len(guest_game))
        while intruder.connections < 2 * len(intruder.tried):
            time.sleep(0.1)
        intruder.stop()
        assert numbers(guest) == list(range(1, len(host_game) + 1))
        assert numbers(host) == list(range(1, len(guest_game) + 1))
        assert on_host.score == sum(play_match(7, "casual").round_scores)
        assert host_link.phase == guest_link.phase == "finished"
        assert server_states(host) == server_states(guest) == ["connecting", "connected"], "never dropped"
        assert not any(isinstance(event, (ev.MatchVoided, ev.OpponentLeft)) for event in host.seen + guest.seen)
        assert not [event for event in host.seen + guest.seen if isinstance(event, ev.PeerConnection)], \
            "neither side ever saw the other stop answering"
        assert (old_way.drops > 0) == standard, f"the old identifier was dropped {old_way.drops} times"
    finally:
        intruder.stop()
        old_way.stop()
        guest.net.stop()
        host.net.stop()


def test_a_console_whose_account_signs_in_elsewhere_says_so_and_keeps_its_match(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Another connection signed in as Ann (her own password: a second console set to her account)
    takes Ann's place: her console says so, in its state and in the log, waits its pause and comes
    back; the match goes on to its end, nothing lost."""
    broker = start_broker(tmp_path / "server", standard=False)
    quick = Limits(server_taken_over_pause=4.0)  # the other connection has left when it comes back
    host = Endpoint("Ann", quick, server=broker.server.account("ann"))
    guest = Endpoint("Bob", quick, server=broker.server.account("bob"))
    try:
        match = half_played(host, guest)
        guest.wait(ev.OpponentMoved, lambda event: event.number == match.half)
        status = "pyramids/v1/status/ann"
        with caplog.at_level(logging.WARNING, logger="pyramid.net"):
            # A console as any other: its last will "gone", "here" as soon as it is connected.
            elsewhere = paho_client(broker.server, "ann", broker.server.password("ann"), "any-identifier")
            elsewhere.will_set(status, b"gone", qos=1, retain=True)
            elsewhere.on_connect = lambda client, *args: client.publish(status, b"here", qos=1, retain=True)
            elsewhere.connect("127.0.0.1", broker.server.port)
            elsewhere.loop_start()
            taken = host.wait(ev.ServerState, lambda event: event.state == "taken_over")
            deadline = time.monotonic() + 10  # Ann's console came back once, found it and left: it reconnects
            while not elsewhere.is_connected() and time.monotonic() < deadline:
                time.sleep(0.05)
            elsewhere.publish(status, b"gone", qos=1, retain=True).wait_for_publish(10)
            elsewhere.disconnect()
            elsewhere.loop_stop()
        assert taken.detail == "another connection signed in as ann"
        assert any("took this console's place" in record.getMessage() for record in caplog.records)
        host.wait(ev.ServerState, lambda event: event.state == "connected")
        play_out(host, guest, *match)
        assert server_states(host) == ["connecting", "connected", "unreachable", "taken_over", "connected"]
    finally:
        guest.net.stop()
        host.net.stop()
        broker.stop()


# -- the identifier itself ---------------------------------------------------------------------------
def account(user: str, password_file: Path | None = None, certificate: ClientCertificate | None = None) -> ServerAccount:
    return ServerAccount("tables.example.org", 8883, user, password_file, None, certificate)


def test_the_identifier_is_the_secrets_and_any_mqtt_server_takes_it(tmp_path: Path) -> None:
    ann = client_identifier(account("ann", tmp_path / "password"), "correct horse")
    assert ann == client_identifier(account("ann", tmp_path / "password"), "correct horse"), "the same each time"
    assert len(ann) == 23 and ann.isalnum() and ann.isascii(), "MQTT 5.0, 3.1.3.1: every server takes it"
    assert ann not in guesses("ann") and "ann" not in ann.lower()
    others = {client_identifier(account("ann", tmp_path / "password"), "battery staple"),
              client_identifier(account("bob", tmp_path / "password"), "correct horse")}
    assert ann not in others and len(others) == 2
    key = tmp_path / "client.key"
    key.write_bytes(b"-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF\n")
    dee = account("dee", certificate=ClientCertificate(tmp_path / "client.crt", key))
    assert client_identifier(dee, None) == client_identifier(dee, None) != client_identifier(account("dee"), "x")
    key.unlink()
    with pytest.raises(ServerSettingsError, match="cannot read the key"):
        client_identifier(dee, None)


def test_a_server_that_says_the_session_was_taken_over_is_heard() -> None:
    """MQTT 5 servers that send DISCONNECT "Session taken over" (0x8E) are believed at once; aiomqtt
    ends the messages' iteration with that DISCONNECT as the cause."""
    import aiomqtt
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.reasoncodes import ReasonCode

    from pyramid.net.server.session import SESSION_TAKEN_OVER, _disconnect_code

    def dropped(code: int) -> aiomqtt.MqttError:
        try:
            raise aiomqtt.MqttError("Disconnected during message iteration") from \
                aiomqtt.MqttCodeError(ReasonCode(PacketTypes.DISCONNECT, identifier=code), "Unexpected disconnection")
        except aiomqtt.MqttError as error:
            return error

    assert _disconnect_code(dropped(142)) == SESSION_TAKEN_OVER
    assert _disconnect_code(dropped(128)) == 128 != SESSION_TAKEN_OVER
    assert _disconnect_code(aiomqtt.MqttError("no cause")) is None
