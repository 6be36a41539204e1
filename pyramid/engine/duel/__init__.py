"""The Pyramids duel: its board, the search its computer players use, the players, matches."""
