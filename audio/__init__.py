"""Sound effects: made by the project (synthesised at start), played through pygame's mixer.

Like ``display/``, this package reads only the view contract (:mod:`pyramid.view`):
what it plays follows from the difference between two views and their feedback.
"""
