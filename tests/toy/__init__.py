"""A toy game in the two folders a new game needs (docs/adding-a-game.md)."""
