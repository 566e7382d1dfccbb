"""The card layer shared by both games: cards, decks, deck files and seeded deals."""
