"""The player's data: SQLite store, the game in progress, statistics and settings.

Everything here survives a power cut (see :mod:`pyramid.saved.store`).
``python -m pyramid.saved where|check`` inspects it.
"""
