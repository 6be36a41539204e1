"""The Pyramids duel's screens: its menus, the table, the turns and the results."""
