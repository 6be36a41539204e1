"""Errors of the input package: bad settings, and sources that cannot start here."""

from __future__ import annotations


class InputSettingsError(ValueError):
    """A mistake in the ``[input]`` sections of the settings file (or in ``--input``); the message names it."""


class SourceUnavailableError(RuntimeError):
    """An input source cannot run on this machine (library missing, no GPIO chip, pin in use)."""
