"""Typed errors of the saved data, each quoting the offending value."""

from __future__ import annotations

from pyramid.errors import PyramidError


class SavedDataError(PyramidError):
    """Base class of every error about the player's saved data."""


class InvalidSettingError(SavedDataError):
    """A setting given a value of the wrong type or outside its choices."""
