"""The computer players' skill levels, by name: a leaf module, so that what only names a level (the
wire protocol, the menus, the settings) does not load the players and their search (issue 48: the
network's protocol pulled the computer player into the console's start)."""

#: The levels, weakest first (their index is part of a computer game's seed: engine/duel/ai.py).
LEVELS = ("casual", "good", "expert")
