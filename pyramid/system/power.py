"""Power the console off: ask systemd-logind, the way a desktop's "Shut down" does.

The console runs as the unprivileged user ``pyramid`` and may not halt the
machine itself. systemd-logind may, and asks polkit whether the caller is
allowed: firmware/install.sh installs a rule that allows exactly the user
``pyramid`` and exactly the power-off actions. logind then starts
``poweroff.target``, and systemd stops the console with SIGTERM first (the
console saves the game in progress then, as it does for any stop).

The call goes through ``busctl`` (part of systemd, on every device) over the
system D-Bus socket, so the console needs no D-Bus library and the unit only
``AF_UNIX``. ``interactive`` is false: there is nobody to type a password.
"""

from __future__ import annotations

import subprocess

from pyramid.errors import PyramidError

#: logind's Manager.PowerOff(interactive=false) on the system bus.
POWER_OFF_COMMAND = ("busctl", "call", "--system", "org.freedesktop.login1", "/org/freedesktop/login1",
                     "org.freedesktop.login1.Manager", "PowerOff", "b", "false")
#: logind answers at once (the shutdown itself goes on without us); a bus that hangs is an error.
TIMEOUT_SECONDS = 30.0
RULE = "/etc/polkit-1/rules.d/50-pyramid-power-off.rules"


class PowerOffError(PyramidError):
    """systemd-logind could not be asked, or refused, to power the machine off."""


def power_off() -> None:
    """Ask systemd-logind to power the machine off now; return once it has accepted.

    Raises :class:`PowerOffError` saying what failed and what to do when busctl
    is missing, the bus or logind does not answer, or logind (polkit) refuses.
    """
    try:
        result = subprocess.run(POWER_OFF_COMMAND, capture_output=True, text=True, timeout=TIMEOUT_SECONDS,
                                stdin=subprocess.DEVNULL, check=False)
    except FileNotFoundError:
        raise PowerOffError("cannot power off: busctl (part of systemd) is not installed; "
                            "switch the console off at its power switch") from None
    except subprocess.TimeoutExpired:
        raise PowerOffError(f"cannot power off: systemd-logind did not answer within {TIMEOUT_SECONDS:.0f} s; "
                            "switch the console off at its power switch") from None
    if result.returncode != 0:
        reason = result.stderr.strip() or f"busctl exited with status {result.returncode}"
        raise PowerOffError(f"systemd-logind did not power off: {reason!r}. It needs the polkit rule {RULE} "
                            "(firmware/install.sh installs it) and a running polkitd; "
                            "until then switch the console off at its power switch")
