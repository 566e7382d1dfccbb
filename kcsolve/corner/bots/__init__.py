"""The bots, each playing from its seat's view, and hands and tournaments played by them."""
