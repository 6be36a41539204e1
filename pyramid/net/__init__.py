"""Pyramids tables on the local network (issue 12): everything below the console's screens.

Start with :class:`pyramid.net.network.Network` (the one object the console
makes), :mod:`pyramid.net.events` (what it posts to the main loop) and
:class:`pyramid.net.link.MatchLink` (one match at a table). docs/network.md
documents the protocol. This package imports the engine, :mod:`pyramid.errors`,
the standard library and python-zeroconf, never the console, pygame,
``display`` or ``input``.
"""
