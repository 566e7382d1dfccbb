"""A game at the table in the terminal: what a player types, the 80x24 screen, the game against the bots."""
