"""The game itself: the rules and their options, the engine (positions and moves), positions as text."""
