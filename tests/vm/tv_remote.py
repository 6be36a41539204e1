"""The TV's remote control, run in the guest on the TV's CEC adapter (vivid's HDMI input): one press a line.

Reads a key name a line on standard input (cec-ctl's names for the UI commands: right, left, up,
down, select, back); for each, transmits User Control Pressed from the TV (logical address 0) to
the console (4), then User Control Released, as a TV does for a short press, and prints two times
of the press, CLOCK_MONOTONIC seconds (the clock of the console's trace): when the transmit was
asked for (the key pressed: the bus's wait for a free line and the message's own bit times follow)
and the kernel's transmit timestamp (its last bit on the bus).

Why not cec-ctl for each press (as the other checks do): a process started over SSH for every
key (sshd, sudo, cec-ctl) ran in the guest while the console drew the frame that key changed, and
the emulated machine's two processors made the TV's key look slower than the keyboard's, which
QEMU presses from outside (the console's part, read to frame, median 295 against 227 ms; with this
one process, started once, 258 against 236 ms).

The TV's adapter is opened blocking, so a transmit returns once it is done and its timestamp set
(linux/cec.h; Documentation/userspace-api/media/cec/cec-ioc-receive.rst). Runs from the
project's copy in the guest (``PYTHONPATH``): the structures are the console's own.
"""

from __future__ import annotations

import fcntl
import os
import sys
import time

from pyramid.system.cec.kernel import TRANSMIT, Msg
from pyramid.system.cec.messages import Opcode

#: The UI commands (CEC 2.0, "User Control Codes"; cec-ctl's names): 0x0D is Exit in 1.4, Back in 2.0.
UI_COMMANDS = {"select": 0x00, "up": 0x01, "down": 0x02, "left": 0x03, "right": 0x04, "back": 0x0D}
TV, CONSOLE = 0, 4
TX_STATUS_OK = 1 << 0


def transmit(fd: int, *body: int) -> float:
    """Send one message from the TV to the console; the kernel's transmit timestamp, in seconds."""
    message = Msg()
    payload = (TV << 4 | CONSOLE, *body)
    message.len = len(payload)
    for index, byte in enumerate(payload):
        message.msg[index] = byte
    fcntl.ioctl(fd, TRANSMIT, message)
    if not message.tx_status & TX_STATUS_OK:
        raise OSError(f"the console did not acknowledge {bytes(payload).hex()} (tx status {message.tx_status:#x})")
    return float(message.tx_ts) / 1e9


def main(adapter: str) -> int:
    fd = os.open(adapter, os.O_RDWR)
    try:
        for line in sys.stdin:
            command = UI_COMMANDS[line.strip()]
            pressed = time.monotonic()
            sent = transmit(fd, Opcode.USER_CONTROL_PRESSED, command)
            transmit(fd, Opcode.USER_CONTROL_RELEASED)
            print(f"{pressed:.6f} {sent:.6f}", flush=True)
    finally:
        os.close(fd)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
