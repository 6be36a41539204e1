"""The composition root: options → session, display, inputs → the one main loop.

This package is the only part of the console that imports ``display``, ``input`` and
``audio``. Everything it builds is chosen explicitly (flags, the settings file, the
environment); if the screen that was asked for cannot be opened the console exits
non-zero with a message that says what to do, rather than falling back silently.

One job a module: ``main`` (the command: its options, and its errors as exit
statuses), ``modes`` (the console proper and the scripted mode), ``start`` (what both
modes start from: the session on its first screens, the screen), ``loop`` (the one main
loop, the first frame and ``READY=1``), ``frontend`` (display, renderer, motion and
sound), ``settings_file`` (the hardware settings file, its one owner), ``network``
(where the network thread's events go) and ``self_test`` (the updater's check).
"""

from pyramid.app.main import main

__all__ = ["main"]
