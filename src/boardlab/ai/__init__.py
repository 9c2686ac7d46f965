"""Bots generic over the game protocol, and the arena."""
