"""Every input device turned into the same few actions (docs/rules.md, "Controls").

Keyboards, mice and touch through SDL (:mod:`input.keyboard`), GPIO buttons
through gpiozero (:mod:`input.gpio`), and remotes, gamepads, gpio-key buttons
and touchscreens through evdev (:mod:`input.evdev_devices`) all report to one
:class:`input.hub.InputHub`. The main loop only calls ``hub.wait(timeout)``,
which blocks without spinning and returns :class:`pyramid.actions.Action`
objects; hold-to-repeat, long presses and debounce happen there, on one
injectable clock, the same for every source.

Entry points (import the modules, e.g. ``from input import sources``; a bare
``import input`` would shadow the builtin ``input()``):

- :func:`input.sources.open_hub` builds the hub with the chosen sources;
- :func:`input.keymap.parse_sources` reads ``--input keyboard,gpio,evdev``;
- :meth:`input.keymap.InputSettings.from_settings` validates ``[input]``;
- ``hub.recent_presses`` and ``hub.connected_devices`` feed the Controls
  test screen.

Taps are in panel pixels; the application turns them with the display's
rotation (input.touch).

This package never imports ``display``.
"""
