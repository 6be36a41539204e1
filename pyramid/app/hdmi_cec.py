"""The console on the TV's HDMI-CEC bus, joined to the main loop: started after the inputs, its news queued.

The CEC thread (:class:`~pyramid.system.cec.service.CecService`) only reports:
the TV's standby and whether the console is shown go on the input hub's queue
as items for the session; a remote key read from the messages (a kernel with
no CEC remote-control device) becomes a press or release on the hub, through
the same keymap as every remote, so it debounces and repeats as they do. The
main loop asks for One Touch Play when a key is pressed on another device while
the TV shows another input (``wake_tv``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from input.hub import TV_REMOTE
from pyramid.system.cec.playback import CecNews, RemoteKey
from pyramid.system.cec.service import DEVICES, CecService
from pyramid.system.cec.settings import CecSettings

if TYPE_CHECKING:
    from input.hub import InputHub
    from input.keymap import KeyMap

log = logging.getLogger(__name__)


class TvBus:
    """The CEC service and what the main loop asks of it."""

    def __init__(self, service: CecService, settings: CecSettings) -> None:
        self.service, self.settings = service, settings

    def pressed(self) -> None:
        """A key was pressed: if the TV shows another input, show it the console again (One Touch Play)."""
        statuses = self.service.statuses()
        if self.settings.wake_tv and statuses and not any(status.active for status in statuses):
            self.service.wake()

    def stop(self) -> None:
        self.service.stop()


def hub_news(hub: InputHub, keys: KeyMap) -> Callable[[CecNews], None]:
    """What the CEC thread does with its news: a remote key read from the messages pressed or released on
    the hub (the one keymap of every remote), anything else queued for the session."""

    def news(item: CecNews) -> None:
        if isinstance(item, RemoteKey):
            action = keys.names.get(item.key)
            if action is not None:
                (hub.press if item.pressed else hub.release)(action, TV_REMOTE)
            return
        hub.post(item)

    return news


def start_tv_bus(settings: CecSettings, hub: InputHub, keys: KeyMap) -> TvBus | None:
    """Follow every CEC adapter found, and one plugged in later (None: CEC off in the settings, or no adapter
    and /dev not watchable)."""
    if not settings.enabled:
        return None
    from input.evdev_devices import NodeWatcher

    try:
        watch: NodeWatcher | None = NodeWatcher.open(DEVICES)
    except OSError as error:
        log.info("HDMI-CEC: %s cannot be watched (%s): an adapter plugged in later is not seen", DEVICES, error)
        watch = None
    service = CecService(hub_news(hub, keys), settings.osd_name, settings.wake_tv, watch=watch)
    service.start()
    if not service.statuses() and watch is None:
        service.stop()
        log.info("HDMI-CEC: no adapter on this machine")
        return None
    return TvBus(service, settings)
