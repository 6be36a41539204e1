"""Contact-bounce filtering for bare switches (GPIO buttons).

A mechanical button chatters for a few milliseconds when it closes or opens.
The first edge is taken at once (no added latency); edges during the following
``bounce_time`` are only remembered, and when that quiet period ends the
button's last seen level wins. That trailing check matters: a plain lockout
would miss a release that lands inside the quiet period and leave an arrow
repeating forever.

Edges carry the time they happened (the clock read in the callback thread),
and :meth:`Debouncer.settle` is called by the main loop at
:meth:`Debouncer.next_deadline`, so everything is driven by one injectable
clock and needs no timer thread. gpiozero's own ``bounce_time`` is not used:
``MockPin`` does not simulate it, and lgpio's version delays every press by
the whole bounce time.
"""

from __future__ import annotations

from dataclasses import dataclass

#: A switch is named by (button, device), as in the hub.
Key = tuple[str, str]


@dataclass(slots=True)
class _Contact:
    accepted: bool = False
    seen: bool = False
    quiet_until: float = float("-inf")
    bounce_time: float = 0.0


class Debouncer:
    """Filters press/release edges per (button, device)."""

    def __init__(self) -> None:
        self._contacts: dict[Key, _Contact] = {}

    def edge(self, key: Key, pressed: bool, at: float, bounce_time: float) -> list[bool]:
        """An edge seen at time ``at``. Returns the accepted level changes, oldest first."""
        contact = self._contacts.setdefault(key, _Contact())
        contact.bounce_time = bounce_time
        changes = self._settle_contact(contact, at)
        contact.seen = pressed
        if at >= contact.quiet_until and pressed != contact.accepted:
            contact.accepted = pressed
            contact.quiet_until = at + bounce_time
            changes.append(pressed)
        return changes

    def settle(self, now: float) -> list[tuple[Key, bool]]:
        """Level changes that became certain because a quiet period ended by ``now``."""
        return [(key, level) for key, contact in self._contacts.items() for level in self._settle_contact(contact, now)]

    def next_deadline(self) -> float | None:
        """When a quiet period with a pending level change ends, or None."""
        pending = [c.quiet_until for c in self._contacts.values() if c.seen != c.accepted]
        return min(pending, default=None)

    def forget_device(self, device: str) -> None:
        """Drop the state of every switch of a device that went away."""
        for key in [key for key in self._contacts if key[1] == device]:
            del self._contacts[key]

    @staticmethod
    def _settle_contact(contact: _Contact, now: float) -> list[bool]:
        if contact.seen == contact.accepted or now < contact.quiet_until:
            return []
        contact.accepted = contact.seen
        contact.quiet_until += contact.bounce_time
        return [contact.accepted]
