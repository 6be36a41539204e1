"""sd_notify over a real AF_UNIX datagram socket, as systemd would listen."""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyramid.system.sdnotify import Notifier


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """A datagram socket bound to a file path, like PID 1's /run/systemd/notify."""
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    yield sock, path
    sock.close()


def test_ready_watchdog_and_status_arrive_as_datagrams(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    notifier = Notifier.from_environ({"NOTIFY_SOCKET": path})
    notifier.ready()
    notifier.watchdog()
    notifier.status("Playing deal 42\nrow 3")
    notifier.stopping()
    notifier.close()
    assert [sock.recv(4096) for _ in range(4)] == [
        b"READY=1",
        b"WATCHDOG=1",
        b"STATUS=Playing deal 42 row 3",
        b"STOPPING=1",
    ]


def test_abstract_socket_written_with_at_sign() -> None:
    name = f"pyramid-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(5)
    try:
        notifier = Notifier.from_environ({"NOTIFY_SOCKET": "@" + name})
        assert notifier.enabled
        notifier.ready()
        assert sock.recv(4096) == b"READY=1"
    finally:
        sock.close()


def test_without_systemd_every_call_is_a_no_op() -> None:
    notifier = Notifier.from_environ({})
    assert not notifier.enabled
    assert notifier.watchdog_interval() is None
    notifier.ready()
    notifier.watchdog()
    notifier.status("idle")


def test_watchdog_interval_is_half_the_timeout() -> None:
    notifier = Notifier.from_environ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())})
    assert notifier.watchdog_interval() == 15.0


@pytest.mark.parametrize(
    "env",
    [
        {"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"},
        {"WATCHDOG_USEC": "0"},
        {"WATCHDOG_USEC": "soon"},
    ],
)
def test_watchdog_not_meant_for_this_process_is_ignored(env: dict[str, str]) -> None:
    assert Notifier.from_environ(env).watchdog_interval() is None


def test_lost_socket_is_logged_not_raised(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    notifier = Notifier.from_environ({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    with caplog.at_level(logging.WARNING, logger="pyramid.sdnotify"):
        notifier.ready()
    assert "READY=1" in caplog.text
