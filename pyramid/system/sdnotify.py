"""Tell systemd how the console is doing: ready, alive, and what it is doing.

The unit is ``Type=notify`` with ``WatchdogSec=``: systemd waits for ``READY=1``
before it calls the start a success (so an update only counts as good once the
first frame is on screen), and restarts the console when ``WATCHDOG=1`` stops
arriving (so a hung main loop does not leave a frozen screen).

The protocol is one datagram per message on the ``AF_UNIX`` socket named in
``$NOTIFY_SOCKET`` (a path, or an abstract name written with a leading ``@``).
It is small enough to speak with the standard library, which keeps the engine
free of extra dependencies. Outside systemd (a desktop, the tests) every method
is a no-op, so the main loop can call them unconditionally.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

logger = logging.getLogger(__name__)


class Notifier:
    """Sends state notifications to the service manager, or nothing at all.

    Build one with :meth:`from_environ`; call :meth:`ready` once the first frame
    is shown, :meth:`watchdog` from the main loop at least every
    :meth:`watchdog_interval` seconds, and :meth:`status` to show a line of text
    in ``systemctl status``.
    """

    def __init__(self, address: str | None, watchdog_usec: int | None = None) -> None:
        """Notify ``address`` (None: not under systemd) with a ``watchdog_usec`` timeout."""
        self._address = _socket_address(address) if address else None
        self._watchdog_usec = watchdog_usec
        self._socket: socket.socket | None = None

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> Notifier:
        """A notifier for the socket and watchdog systemd passed in the environment.

        ``$WATCHDOG_USEC`` only counts when ``$WATCHDOG_PID`` is unset or names this
        process: a child the console starts must not believe the watchdog is its own.
        """
        env = os.environ if environ is None else environ
        return cls(env.get("NOTIFY_SOCKET") or None, _watchdog_usec(env))

    @property
    def enabled(self) -> bool:
        """True when running under a service manager that listens."""
        return self._address is not None

    def watchdog_interval(self) -> float | None:
        """Seconds between :meth:`watchdog` calls: half the timeout, as systemd advises.

        None when the unit has no watchdog.
        """
        if self._watchdog_usec is None:
            return None
        return self._watchdog_usec / 2_000_000

    def ready(self) -> None:
        """The console is up: its first frame is on screen."""
        self.send("READY=1")

    def watchdog(self) -> None:
        """The main loop is still turning."""
        self.send("WATCHDOG=1")

    def status(self, text: str) -> None:
        """A one-line description of what the console is doing now."""
        self.send(f"STATUS={_one_line(text)}")

    def stopping(self) -> None:
        """The console is shutting down on purpose."""
        self.send("STOPPING=1")

    def send(self, message: str) -> None:
        """Send one raw notification such as ``"READY=1"``.

        A failed send is logged, never raised: losing one notification must not
        crash the console (a missed ``READY=1`` is caught by the start timeout).
        """
        if self._address is None:
            return
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._socket.sendto(message.encode(), self._address)
        except OSError as error:
            logger.warning("sd_notify %r to %r failed: %s", message, self._address, error)

    def close(self) -> None:
        """Release the socket; later sends open a new one."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def _socket_address(name: str) -> str:
    """The address ``sendto`` wants: an abstract name starts with NUL instead of '@'."""
    if name.startswith("@"):
        return "\0" + name[1:]
    return name


def _watchdog_usec(env: Mapping[str, str]) -> int | None:
    """The watchdog timeout meant for this process, or None."""
    pid = env.get("WATCHDOG_PID")
    if pid and pid != str(os.getpid()):
        return None
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    return usec if usec > 0 else None


def _one_line(text: str) -> str:
    """STATUS= is one line of the datagram; a newline would start a new field."""
    return " ".join(text.split())
