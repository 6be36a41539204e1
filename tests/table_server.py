"""A real table server for the tests: made by firmware/server/make-server.sh in a directory and run
as a Mosquitto on 127.0.0.1 with TLS, the shipped configuration and ACL (issue 30).

Skipped, with the reason, where Mosquitto is not installed (`.ci/run` installs it).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from ports import free_port
from pyramid.net.server.account import ClientCertificate, ServerAccount

ROOT = Path(__file__).resolve().parent.parent
MAKE_SERVER = ROOT / "firmware" / "server" / "make-server.sh"
MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
HINT = "apt-get install mosquitto mosquitto-clients"


class Server(NamedTuple):
    port: int  # passwords
    directory: Path  # etc/mosquitto/pyramids under the server's root
    certificate_port: int  # client certificates

    def password(self, account: str) -> str:
        return (self.directory / "consoles" / account / "password").read_text().strip()

    def certificate(self, account: str) -> ClientCertificate | None:
        """The account's client certificate, if make-server.sh --certificates made it one."""
        files = self.directory / "consoles" / account
        return ClientCertificate(files / "client.crt", files / "client.key") if (files / "client.crt").exists() else None

    def account(self, user: str) -> ServerAccount:
        """The console ``user``'s settings, as make-server.sh tells its owner to write them."""
        files = self.directory / "consoles" / user
        certificate = self.certificate(user)
        if certificate is not None:
            return ServerAccount("127.0.0.1", self.certificate_port, user, None, files / "ca.crt", certificate)
        return ServerAccount("127.0.0.1", self.port, user, files / "password", files / "ca.crt")

    def settings_file(self, user: str, path: Path) -> Path:
        """A console's settings file with the ``[network]`` lines make-server.sh tells its owner to write."""
        account = self.account(user)
        signs_in = (f'password_file = "{account.password_file}"\n' if account.certificate is None else
                    f'cert_file = "{account.certificate.cert_file}"\nkey_file = "{account.certificate.key_file}"\n')
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f'[network]\nserver = "{account.address}"\nuser = "{user}"\n{signs_in}ca_file = "{account.ca_file}"\n')
        return path

    def client(self, tool: str, account: str | None, password: str | None = None,
               ca: bool = True, certificate: ClientCertificate | None = None) -> list[str]:
        """Mosquitto's ``tool`` signed in as ``account``: by ``certificate``, or its own if it has one and
        no ``password`` is given, else by ``password`` (its own by default)."""
        if certificate is None and account is not None and password is None:
            certificate = self.certificate(account)
        port = self.port if certificate is None else self.certificate_port
        command = [tool, "-h", "127.0.0.1", "-p", str(port), "-V", "mqttv5"]
        if ca:
            command += ["--cafile", str(self.directory / "ca.crt")]
        if certificate is not None:
            command += ["--cert", str(certificate.cert_file), "--key", str(certificate.key_file)]
        elif account is not None:
            command += ["-u", account, "-P", password if password is not None else self.password(account)]
        return command


#: The CA's and the server's files, which make-server.sh keeps when it finds them.
AUTHORITY_FILES = ("ca.key", "ca.crt", "ca.srl", "server.key", "server.crt")
#: Where the test run keeps its one CA and server certificate (tests/conftest.py sets it for every worker).
AUTHORITY_VARIABLE = "PYRAMID_TEST_AUTHORITY"


def shared_authority(directory: Path) -> None:
    """Put the test run's CA and server certificate for 127.0.0.1 in ``directory`` before make-server.sh
    runs there (it keeps them, as on a server made again): their RSA keys, made once per run and shared by
    every worker under a lock, were most of a server's making (0.75 of 0.8 s each)."""
    store = Path(os.environ[AUTHORITY_VARIABLE])
    with open(store / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (store / "server.crt").exists():
            first = Server(free_port(), store / "made" / "etc" / "mosquitto" / "pyramids", free_port())
            made = subprocess.run(["sh", str(MAKE_SERVER), "127.0.0.1", "first"], capture_output=True, text=True,
                                  env=server_environment(first), timeout=120)
            assert made.returncode == 0, made.stderr
            for name in AUTHORITY_FILES:
                shutil.copy2(first.directory / name, store / name)
    directory.mkdir(parents=True, exist_ok=True)
    for name in AUTHORITY_FILES:
        shutil.copy2(store / name, directory / name)


def make_server(root: Path, *accounts: str, certified: Sequence[str] = (),
                own_authority: bool = False) -> tuple[Server, subprocess.CompletedProcess[str]]:
    """Make a server under ``root`` with make-server.sh: ``accounts`` with passwords, then ``certified``
    with client certificates (a second run, as an owner adding them would); skips the test without
    Mosquitto. The runs' output is returned as one. The server's CA is the test run's
    (:func:`shared_authority`) unless ``own_authority``: a server another owner made, whose CA the
    first server's consoles must not trust."""
    if not (os.path.exists(MOSQUITTO) and shutil.which("mosquitto_pub") and shutil.which("openssl")):
        pytest.skip(f"the table server's tests need Mosquitto and its clients: {HINT}")
    server = Server(free_port(), root / "etc" / "mosquitto" / "pyramids", free_port())
    if not own_authority:
        shared_authority(server.directory)
    runs = ([["127.0.0.1", *accounts]] if accounts else []) + ([["--certificates", "127.0.0.1", *certified]] if certified else [])
    said = []
    for arguments in runs:
        made = subprocess.run(["sh", str(MAKE_SERVER), *arguments], capture_output=True, text=True,
                              env=server_environment(server), timeout=120)
        assert made.returncode == 0, made.stderr
        said.append(made.stdout)
    return server, subprocess.CompletedProcess(["make-server.sh"], 0, "".join(said), "")


def server_environment(server: Server) -> dict[str, str]:
    """make-server.sh's environment for a test server: under its own root, on 127.0.0.1, no apt-get,
    chown or systemctl."""
    return {**os.environ, "PYRAMID_ROOT": str(server.directory.parents[2]), "PYRAMID_SKIP": "packages owner restart",
            "PYRAMID_SERVER_PORT": str(server.port), "PYRAMID_SERVER_CERTIFICATE_PORT": str(server.certificate_port),
            "PYRAMID_SERVER_BIND": "127.0.0.1"}


class Broker:
    """Mosquitto running the server made under ``root``; :meth:`kill` and :meth:`start` for the tests
    that take it away mid-match."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        root = self.server.directory.parents[2]
        # As Debian's mosquitto.conf does, the shipped file is included; this run keeps its data here and,
        # started as root by the test, stays root to read the test's files.
        wrapper = root / "test.conf"
        stay = "user root\n" if os.geteuid() == 0 else ""  # as root it would become the mosquitto account
        wrapper.write_text(f"{stay}persistence_location {root}/\ninclude_dir {root}/etc/mosquitto/conf.d\n")
        # Its log goes to a file: a pipe nobody reads fills after some 300 connections (64 KiB of log
        # lines) and Mosquitto stops, blocked on writing the next one.
        log = root / "mosquitto.log"
        with log.open("a") as output:
            process = self.process = subprocess.Popen([MOSQUITTO, "-c", str(wrapper)], stdout=output,
                                                      stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.server.port), timeout=0.5).close()
                return
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
                time.sleep(0.05)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


def running(server: Server) -> Iterator[Broker]:
    """A module's broker for ``server``: started, given to the tests, stopped (``yield from`` it in a fixture)."""
    broker = Broker(server)
    try:
        broker.start()
        yield broker
    finally:
        broker.stop()


class Mallory:
    """A hostile client with an account of its own (paho-mqtt, as any MQTT client could be)."""

    def __init__(self, server: Server) -> None:
        import paho.mqtt.client as mqtt

        self.refused: list[str] = []
        client = self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="mallory",
                                           protocol=mqtt.MQTTv5)
        client.tls_set(ca_certs=str(server.directory / "ca.crt"))
        client.username_pw_set("mallory", server.password("mallory"))
        self.topics: dict[int, str] = {}

        def published(client: Any, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
            if reason.is_failure:
                self.refused.append(f"{self.topics.get(mid)}: {reason}")

        client.on_publish = published
        client.connect("127.0.0.1", server.port)
        client.loop_start()

    def send(self, topic: str, payload: bytes, conversation: bytes | None = None, retain: bool = False) -> None:
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        properties = Properties(PacketTypes.PUBLISH)
        if conversation is not None:
            properties.CorrelationData = conversation
        info = self.client.publish(topic, payload, qos=1, retain=retain, properties=properties)
        self.topics[info.mid] = topic
        info.wait_for_publish(timeout=30)

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
