"""Kings Corner, the game for 2 to 4 players (seeds 000, 001 and 003): its own engine, solvers and bots.

It shares only the card layer (:mod:`kcsolve.common`) with the patience.
"""
