"""The table server (issue 30, part 1): a real Mosquitto made by firmware/server/make-server.sh.

The script makes the server in a directory (PYRAMID_ROOT): a CA and the server's certificate made
with openssl, three accounts, the shipped configuration and ACL; the test starts Mosquitto from it
on 127.0.0.1 (TLS only) and talks to it with Mosquitto's own clients, as three consoles would: what
a console may publish arrives, what it may not is refused by the broker (MQTT 5 "Not authorized"),
and no one gets in without an account, a password or the CA. Skipped, with the reason, where
Mosquitto is not installed (`.ci/run` installs it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyramid.net.server.account import ClientCertificate
from table_server import MAKE_SERVER, Broker, Server, make_server, server_environment


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server, made = make_server(tmp_path_factory.mktemp("server"), "ann", "bob", "mallory", certified=["dee", "eve"])
    assert f'server = "mqtts://127.0.0.1:{server.port}"' in made.stdout and 'user = "ann"' in made.stdout
    assert f'server = "mqtts://127.0.0.1:{server.certificate_port}"' in made.stdout and 'user = "dee"' in made.stdout
    for account, files in (("ann", "password ca.crt"), ("dee", "client.crt client.key ca.crt")):
        # Issue 47, item 14: numbered steps a newcomer follows as they are: the copy, then the install
        # from the copied folder (the line assumed it), then the settings; and the ports to open.
        folder = server.directory / "consoles" / account
        assert f"sudo scp -r {folder} pi@CONSOLE:" in made.stdout
        assert f"cd {account} && sudo install -D -o root -g pyramid -m 640 {files} -t /etc/pyramid/server/" in made.stdout
        assert all((server.directory / "consoles" / account / name).is_file() for name in files.split())
    assert f"open TCP ports {server.port} and {server.certificate_port}" in made.stdout
    assert f"sudo ufw allow {server.port}/tcp" in made.stdout
    broker = Broker(server)
    try:
        broker.start()
        yield server
    finally:
        broker.stop()


def publish(server: Server, account: str | None, topic: str, message: str, **options: object) -> subprocess.CompletedProcess[str]:
    command = server.client("mosquitto_pub", account, **options) + ["-q", "1", "-t", topic, "-m", message]  # type: ignore[arg-type]
    return subprocess.run(command, capture_output=True, text=True, timeout=30)


def received(server: Server, account: str, topic: str, send: list[tuple[str, str, str]]) -> list[str]:
    """What ``account`` receives on ``topic`` while each (account, topic, message) of ``send`` is published."""
    listener = subprocess.Popen(server.client("mosquitto_sub", account) + ["-t", topic, "-W", "3"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)  # subscribed
    for sender, where, message in send:
        publish(server, sender, where, message)
    out, _ = listener.communicate(timeout=30)
    return out.split()


def test_a_console_publishes_under_its_own_topics_and_reads_what_is_addressed_to_it(server: Server) -> None:
    got = received(server, "bob", "pyramids/v1/play/+/bob", [("ann", "pyramids/v1/play/ann/bob", "move-1")])
    assert got == ["move-1"]
    adverts = received(server, "bob", "pyramids/v1/adverts/#", [("ann", "pyramids/v1/adverts/ann", "advert")])
    assert adverts == ["advert"]
    results = received(server, "bob", "pyramids/v1/daily/2026-12-06/retrohub/none/+",
                       [("ann", "pyramids/v1/daily/2026-12-06/retrohub/none/ann", "result")])
    assert results == ["result"], "a daily result: every account reads every account's"


@pytest.mark.parametrize("topic", [
    "pyramids/v1/play/bob/ann",     # a move forged as Bob's
    "pyramids/v1/adverts/bob",      # an advert forged as Bob's table
    "pyramids/v1/status/bob",       # Bob "not answering", forged
    "pyramids/v1/seats/ann/bob",    # a seat asked for in Bob's name
    "pyramids/v1/invites/ann/bob",  # an invite in Bob's name
    "pyramids/v1/daily/2026-12-06/retrohub/none/bob",  # a daily result in Bob's name
    "pyramids/v1/daily/2026-12-06/retrohub/none/mallory/x",  # an account's own, one level too deep
    "pyramids/v2/anything",         # outside the tables' topics
    "$SYS/broker/uptime",
])
def test_the_broker_refuses_what_an_account_may_not_publish(server: Server, topic: str) -> None:
    """The hostile account tries a topic it must not reach: the broker answers "Not authorized"
    (MQTT 5's reason 0x87 for a QoS 1 publish), and the console it aimed at receives nothing."""
    refused = publish(server, "mallory", topic, "forged")
    assert "Not authorized" in refused.stderr
    if topic.startswith("pyramids/v1/play/bob/ann"):
        assert received(server, "ann", "pyramids/v1/play/+/ann", [("mallory", topic, "forged")]) == []


def test_no_one_gets_in_without_an_account_its_password_and_the_ca(server: Server) -> None:
    for attempt in (publish(server, None, "pyramids/v1/adverts/x", "x"),
                    publish(server, "ann", "pyramids/v1/adverts/ann", "x", password="wrong"),
                    publish(server, "nobody", "pyramids/v1/adverts/nobody", "x", password="x")):
        assert attempt.returncode != 0 and "Not authorized" in attempt.stderr + attempt.stdout
    untrusted = publish(server, "ann", "pyramids/v1/adverts/ann", "x", ca=False)
    assert untrusted.returncode != 0, "TLS only: a client that does not trust the server's CA gets nowhere"


def test_an_account_with_a_certificate_publishes_as_its_common_name_and_nothing_else(server: Server) -> None:
    """Dee signs in with the certificate make-server.sh --certificates made her (no password): what she
    may publish arrives; as another account, the broker refuses it, as for a password's account."""
    assert received(server, "bob", "pyramids/v1/play/+/bob", [("dee", "pyramids/v1/play/dee/bob", "move-1")]) == ["move-1"]
    assert received(server, "dee", "pyramids/v1/play/+/dee", [("bob", "pyramids/v1/play/bob/dee", "move-2")]) == ["move-2"]
    for forged in ("pyramids/v1/play/eve/bob", "pyramids/v1/adverts/bob", "pyramids/v1/status/eve"):
        assert "Not authorized" in publish(server, "dee", forged, "forged").stderr


def test_the_certificates_port_takes_no_one_without_a_certificate_of_the_servers_ca(server: Server,
                                                                                   tmp_path: Path) -> None:
    """On the certificates' port: a password is not enough, a certificate of another CA gets nowhere;
    on the passwords' port, a certificate alone is not an account."""
    by_password = server.client("mosquitto_pub", "ann")
    by_password[by_password.index("-p") + 1] = str(server.certificate_port)
    assert_refused(subprocess.run([*by_password, "-q", "1", "-t", "pyramids/v1/adverts/ann", "-m", "x"],
                                  capture_output=True, text=True, timeout=30))
    other, _ = make_server(tmp_path / "other", certified=["ann"], own_authority=True)
    assert_refused(publish(server, "ann", "pyramids/v1/adverts/ann", "x", certificate=other.certificate("ann")))
    certificate_only = server.client("mosquitto_pub", "dee")
    certificate_only[certificate_only.index("-p") + 1] = str(server.port)
    assert "Not authorized" in subprocess.run([*certificate_only, "-q", "1", "-t", "pyramids/v1/adverts/dee", "-m", "x"],
                                              capture_output=True, text=True, timeout=30).stderr


def assert_refused(attempt: subprocess.CompletedProcess[str]) -> None:
    assert attempt.returncode != 0, attempt.stdout
    assert attempt.stderr.strip(), "says why"


def test_running_the_script_again_keeps_the_accounts_and_adds_new_ones(server: Server) -> None:
    before = server.password("ann")
    again = subprocess.run(["sh", str(MAKE_SERVER), "127.0.0.1", "ann", "cy"], capture_output=True, text=True,
                           env=server_environment(server), timeout=120)
    assert again.returncode == 0, again.stderr
    assert "account 'ann' is there already: kept" in again.stdout and 'user = "cy"' in again.stdout
    assert server.password("ann") == before
    certificate = (server.directory / "consoles" / "dee" / "client.crt").read_bytes()
    kept = subprocess.run(["sh", str(MAKE_SERVER), "--certificates", "127.0.0.1", "dee", "bob"], capture_output=True,
                          text=True, env=server_environment(server), timeout=120)
    assert kept.returncode == 0, kept.stderr
    assert kept.stdout.count("is there already: kept") == 2, "a certificate's or a password's: one account a name"
    assert (server.directory / "consoles" / "dee" / "client.crt").read_bytes() == certificate


def test_removed_accounts_get_in_no_more_and_the_others_still_do(tmp_path: Path) -> None:
    """make-server.sh --remove: Ann's password is deleted and Dee's certificate revoked (the CRL the
    certificates' port checks); after Mosquitto's restart neither gets in with what the lost consoles
    still hold, Bob and Eve still do."""
    server, _ = make_server(tmp_path / "server", "ann", "bob", certified=["dee", "eve"])
    broker = Broker(server)
    broker.start()
    try:
        for account in ("ann", "dee"):
            assert publish(server, account, f"pyramids/v1/adverts/{account}", "x").returncode == 0
        lost = tmp_path / "lost"
        shutil.copytree(server.directory / "consoles", lost)
        removed = subprocess.run(["sh", str(MAKE_SERVER), "--remove", "ann", "dee"], capture_output=True, text=True,
                                 env=server_environment(server), timeout=120)
        assert removed.returncode == 0, removed.stderr
        assert "account 'ann' removed" in removed.stdout and "account 'dee' removed" in removed.stdout
        assert not (server.directory / "consoles" / "ann").exists() and not (server.directory / "consoles" / "dee").exists()
        broker.stop()  # what the script's restart does
        broker.start()
        password = (lost / "ann" / "password").read_text().strip()
        assert "Not authorized" in publish(server, "ann", "pyramids/v1/adverts/ann", "x", password=password).stderr
        revoked = ClientCertificate(lost / "dee" / "client.crt", lost / "dee" / "client.key")
        assert_refused(publish(server, "dee", "pyramids/v1/adverts/dee", "x", certificate=revoked))
        for account in ("bob", "eve"):
            assert publish(server, account, f"pyramids/v1/adverts/{account}", "x").returncode == 0, account
    finally:
        broker.stop()


def test_removing_an_account_that_is_not_there_removes_nothing(server: Server) -> None:
    removed = subprocess.run(["sh", str(MAKE_SERVER), "--remove", "bob", "nobody"], capture_output=True, text=True,
                             env=server_environment(server), timeout=120)
    assert removed.returncode == 2 and removed.stderr.strip() == \
        "make-server.sh: there is no account 'nobody': nothing removed"
    assert (server.directory / "consoles" / "bob" / "password").exists()


@pytest.mark.parametrize("arguments", [["host"], ["bad host", "ann"], ["host", "Ann"], ["host", "a/b"],
                                       ["host", "x" * 33], ["host", "-ann"]])
def test_a_wrong_host_or_account_is_one_line_and_changes_nothing(tmp_path: Path, arguments: list[str]) -> None:
    made = subprocess.run(["sh", str(MAKE_SERVER), *arguments], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYRAMID_ROOT": str(tmp_path), "PYRAMID_SKIP": "packages owner restart"})
    assert made.returncode == 2 and len(made.stderr.strip().splitlines()) == 1
    assert not any(tmp_path.iterdir())
