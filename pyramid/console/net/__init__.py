"""The network tables in the console (issue 12): the screens, the match at a table, and their wording.

Built on :mod:`pyramid.net` (which sends codes, never sentences): ``service``
is the one object the session owns for the network, ``lobby`` the menus and
the table's own screen, ``match`` the duel against a console, ``wording`` what
the player reads.
"""
